import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';

const TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Paths answered the same for every host: icons are asked for before (and without) any page. */
export const ICON_PATHS = ['/icons/', '/favicon.ico', '/apple-touch-icon'];

/**
 * The site icons (public/icons, a few KB in all) held in memory and served under /icons/, plus the
 * root paths browsers and crawlers request without being told: /favicon.ico and the
 * /apple-touch-icon.png that iOS looks for.
 */
export const iconRoutes: FastifyPluginAsync<{ dir: string }> = async (app, options) => {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(options.dir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, { body: readFileSync(join(options.dir, name)), type });
  }
  const serve = (name: string) => (_request: unknown, reply: import('fastify').FastifyReply) => {
    const file = files.get(name);
    if (!file) return reply.callNotFound();
    return reply.type(file.type).header('cache-control', 'public, max-age=86400').send(file.body);
  };
  app.get<{ Params: { name: string } }>('/icons/:name', (request, reply) => serve(request.params.name)(request, reply));
  app.get('/favicon.ico', serve('favicon.ico'));
  app.get('/apple-touch-icon.png', serve('apple-touch-icon.png'));
  app.get('/apple-touch-icon-precomposed.png', serve('apple-touch-icon.png'));
};
