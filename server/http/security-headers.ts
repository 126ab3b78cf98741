import { createHash } from 'node:crypto';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { BOOT_SCRIPT } from '../../islands/boot-script.ts';
import { dataConnectSources } from '../data/plugin.ts';
import { hostHeaderCount } from './host-headers.ts';

/** The CSP source that allows the boot script: the SHA-256 of its exact text. */
export const BOOT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;

/**
 * The headers @fastify/helmet sets for `options`. The plugin rebuilds helmet's middleware (and
 * re-parses the CSP) on every request; for one fixed configuration the result never changes, so it
 * is taken once from a throwaway instance and then set as plain headers.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(fastifyHelmet, options);
  probe.get('/', async () => 'probe');
  const response = await probe.inject({ url: '/' });
  await probe.close();
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name, value]) => !own.has(name) && typeof value === 'string')
      .map(([name, value]) => [name, value as string]),
  );
}

/**
 * Every response carries the security headers (CSP, HSTS, nosniff, frame rules); a request with two
 * Host headers is refused before anything else runs. Returns the headers, for the answers Fastify
 * gives before any hook runs (a URL its router cannot decode).
 */
export async function secureResponses(
  app: FastifyInstance,
  options: { viteClient: boolean; dataUrl: string | undefined },
): Promise<Record<string, string>> {
  // Helmet's headers are the same for every response: worked out once, not per request
  const securityHeaders = await helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The page's inline boot script, and nothing else inline, by its hash (decision 0199).
        scriptSrc: ["'self'", BOOT_SCRIPT_HASH],
        // Vite's client injects <style> elements for hot CSS updates; only in development.
        styleSrc: options.viteClient ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        // And waits for a restarted server from a worker made from a blob, then reloads the page.
        ...(options.viteClient ? { workerSrc: ["'self'", 'blob:'] } : {}),
        imgSrc: ["'self'", 'data:', 'https:'],
        // Data layer: 'self' covers the embedded /graphql socket; GRAPHQL_URL adds its origin.
        connectSrc: ["'self'", ...dataConnectSources(options.dataUrl)],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Cross-origin isolation headers would block images a CMS serves from its own CDN.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders);
    // Two Host headers make the storefront ambiguous (Node keeps the first, a proxy may have used
    // the second): refused as HTTP/1.1 requires, before anything is resolved, rendered or cached.
    if (hostHeaderCount(request.raw.rawHeaders) > 1) {
      reply.code(400).header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      reply.send('Bad Request: more than one Host header');
      return;
    }
    done();
  });
  return securityHeaders;
}
