import type { Env } from '../config/env.ts';
import { type ContentstackContentService, createContentstackService } from './contentstack.ts';
import { createUpstreamContentService, type UpstreamContentService } from './upstream.ts';

/**
 * Which content source serves, from the environment: a Contentstack stack when its API key is set,
 * else the content service when its URL is set, else nothing (the app makes the embedded store).
 */
export function contentSource(
  env: Env,
  logger: { warn(details: object, message: string): void; error?(details: object, message: string): void },
): ContentstackContentService | UpstreamContentService | undefined {
  const cached = { cacheTtlMs: env.CONTENT_CACHE_TTL_MS ?? 60_000, staleMs: 10 * 60_000, maxEntries: 20_000, logger };
  if (env.CONTENTSTACK_API_KEY) {
    return createContentstackService({
      ...cached,
      apiKey: env.CONTENTSTACK_API_KEY,
      // readEnv refuses an API key without these two.
      deliveryToken: env.CONTENTSTACK_DELIVERY_TOKEN ?? '',
      environment: env.CONTENTSTACK_ENVIRONMENT ?? '',
      region: env.CONTENTSTACK_REGION,
      host: env.CONTENTSTACK_HOST,
      previewHost: env.CONTENTSTACK_PREVIEW_HOST,
      branch: env.CONTENTSTACK_BRANCH,
      previewToken: env.CONTENTSTACK_PREVIEW_TOKEN,
    });
  }
  if (env.CONTENT_SERVICE_URL) {
    return createUpstreamContentService({
      ...cached,
      contentServiceUrl: env.CONTENT_SERVICE_URL,
      appConfigUrl: env.APP_CONFIG_URL ?? env.CONTENT_SERVICE_URL,
      appConfigCookies: (env.APP_CONFIG_COOKIES ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    });
  }
  return undefined;
}
