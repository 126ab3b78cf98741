import proxyAddr from '@fastify/proxy-addr';
import { type Static, Type } from '@sinclair/typebox';
import envSchema from 'env-schema';
import { CONTENTSTACK_REGIONS, type ContentstackRegion } from '../content/contentstack-api.ts';
import { ConfigError } from '../errors.ts';

/** The environment the server reads: its address, the content source, and the optional upstreams and secrets. */
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  SITES_CONFIG: Type.String({ minLength: 1, default: 'config/sites.json' }),
  CONTENT_DIR: Type.String({ minLength: 1, default: 'content' }),
  // FORCE_HOST="" counts as unset.
  FORCE_HOST: Type.Optional(Type.String()),
  NODE_ENV: Type.Unsafe<'development' | 'production' | 'test'>({
    type: 'string',
    enum: ['development', 'production', 'test'],
    default: 'development',
  }),
  CONTENT_SERVICE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  APP_CONFIG_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  // Comma-separated names of the cookies the application configuration may depend on.
  APP_CONFIG_COOKIES: Type.Optional(
    Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+(,[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$" }),
  ),
  REVALIDATE_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  TRUST_PROXY: Type.Optional(Type.String()),
  // TCP connections held at most, in total and per client address (server/http/connection-caps.ts).
  CONNECTIONS_MAX: Type.Optional(Type.Integer({ minimum: 1 })),
  CONNECTIONS_PER_ADDRESS: Type.Optional(Type.Integer({ minimum: 1 })),
  // Open WebSockets held at most (server/http/connection-caps.ts `socketCap`).
  SOCKETS_MAX: Type.Optional(Type.Integer({ minimum: 1 })),
  // Deadlines of a connection (server/app.ts): its first byte, its whole request (headers within
  // 10 s of it), and the idle time between requests; tests shorten them.
  HTTP_FIRST_BYTE_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 1 })),
  HTTP_REQUEST_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 1 })),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 1 })),
  // bench: `off` renders every request, for the uncached benchmark rows.
  HTML_CACHE: Type.Optional(Type.Unsafe<'on' | 'off'>({ type: 'string', enum: ['on', 'off'] })),
  // Freshness of rendered pages and of upstream content reads (the bench's load test shortens both).
  HTML_CACHE_TTL_MS: Type.Optional(Type.Integer({ minimum: 0 })),
  CONTENT_CACHE_TTL_MS: Type.Optional(Type.Integer({ minimum: 0 })),
  // Another GraphQL backend instead of the embedded one.
  GRAPHQL_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  // HMAC secret of bearer tokens; 32 characters at least (server/data/auth.ts MIN_SECRET_LENGTH).
  GRAPHQL_TOKEN_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  // How often the demo changes a price, in ms; 0 turns it off (tests that set prices themselves).
  GRAPHQL_DEMO_CHANGE_MS: Type.Optional(Type.Integer({ minimum: 0 })),
  // The editor workbench at /__workbench: on in development unless `off`, off in production unless `on`.
  WORKBENCH: Type.Optional(Type.Unsafe<'on' | 'off'>({ type: 'string', enum: ['on', 'off'] })),
  // Prometheus /metrics on a port of its own, never the public one; 0 turns metrics off.
  METRICS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 9464 }),
  // The metrics listener's own address: loopback unless a scraper elsewhere is let in, whatever HOST is.
  METRICS_HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  // After SIGTERM, /readyz answers 503 for this long while requests are still served, so load
  // balancers stop sending new ones before the server closes. Default: 3000 in production, else 0.
  SHUTDOWN_DRAIN_MS: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  // OpenTelemetry: spans are exported over OTLP/HTTP only when this is set.
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  // Server processes sharing the port: a number, or `auto` for one per core; unset, one process.
  WORKERS: Type.Optional(Type.String({ pattern: '^(auto|[1-9][0-9]{0,2})$' })),
  // The shared tier: rendered pages, content and price changes shared between instances.
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  // Where content changes are sent as CDN cache tags to purge (POST {"tags": [...]}), and its bearer token.
  CDN_PURGE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  CDN_PURGE_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  // A Contentstack stack as the content source, chosen when the API key is set.
  CONTENTSTACK_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  CONTENTSTACK_DELIVERY_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  CONTENTSTACK_ENVIRONMENT: Type.Optional(Type.String({ minLength: 1 })),
  // `us` when unset.
  CONTENTSTACK_REGION: Type.Optional(
    Type.Unsafe<ContentstackRegion>({ type: 'string', enum: [...CONTENTSTACK_REGIONS] }),
  ),
  CONTENTSTACK_HOST: Type.Optional(Type.String({ pattern: '^https?://' })),
  CONTENTSTACK_PREVIEW_HOST: Type.Optional(Type.String({ pattern: '^https?://' })),
  CONTENTSTACK_BRANCH: Type.Optional(Type.String({ minLength: 1 })),
  CONTENTSTACK_PREVIEW_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  // The image route's variants: one folder every worker of the host sees, and its bound in MB.
  IMAGE_CACHE_DIR: Type.Optional(Type.String({ minLength: 1 })),
  IMAGE_CACHE_MB: Type.Optional(Type.Integer({ minimum: 1 })),
  // Webhook bearer secret: long enough that guessing it is hopeless.
  CONTENTSTACK_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16 })),
});

export type Env = Static<typeof EnvSchema>;

/** Reads and validates the environment; a bad value names the variable and what was expected. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  try {
    // env: false — read `source` only; env-schema would otherwise merge process.env underneath it.
    const env = envSchema<Env>({ schema: EnvSchema, data: source, env: false, dotenv: false });
    if (env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT)
      throw new Error(`METRICS_PORT must differ from PORT (${env.PORT}): metrics never share the public port`);
    // One address must not be able to fill the server for everyone else.
    if (env.CONNECTIONS_PER_ADDRESS !== undefined && env.CONNECTIONS_MAX !== undefined) {
      if (env.CONNECTIONS_PER_ADDRESS >= env.CONNECTIONS_MAX)
        throw new Error('CONNECTIONS_PER_ADDRESS must be below CONNECTIONS_MAX: one address would fill the server');
    }
    if (env.TRUST_PROXY) {
      // Compiled as Fastify and the caps compile it: a bad entry stops the start here, named.
      try {
        proxyAddr.compile(env.TRUST_PROXY.split(',').map((entry) => entry.trim()));
      } catch (error) {
        throw new Error(
          `TRUST_PROXY: ${(error as Error).message}; expected comma-separated addresses or CIDR ranges, or loopback, linklocal, uniquelocal`,
        );
      }
    }
    if (env.CONTENTSTACK_API_KEY) {
      const missing = (['CONTENTSTACK_DELIVERY_TOKEN', 'CONTENTSTACK_ENVIRONMENT'] as const).filter(
        (name) => !env[name],
      );
      if (missing.length > 0) throw new Error(`CONTENTSTACK_API_KEY is set, so ${missing.join(' and ')} must be too`);
    }
    return env;
  } catch (error) {
    throw new ConfigError(`Invalid environment: ${(error as Error).message}`);
  }
}
