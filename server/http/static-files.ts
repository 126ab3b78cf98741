import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ASSETS_PREFIX } from '../render/assets.ts';
import { assetsInMemory } from './assets-in-memory.ts';

const IMAGES_PREFIX = '/images/';

/** A request for a file sent from disk as it is: cheap, and a page already served needs it. */
export const isStaticFile = (url: string) => url.startsWith(ASSETS_PREFIX) || url.startsWith(IMAGES_PREFIX);

/** The build's hashed assets (immutable, precompressed twins sent as they are) and the demo images. */
export async function serveFiles(
  app: FastifyInstance,
  { clientDir, publicDir }: { clientDir: string; publicDir: string },
) {
  // Without the folder (a test app, a broken deploy) its prefix still answers as a miss, not as a page.
  const miss = (_request: unknown, reply: FastifyReply) => reply.callNotFound();
  if (!existsSync(clientDir)) app.get(`${ASSETS_PREFIX}*`, miss);
  if (!existsSync(`${publicDir}/images`)) app.get(`${IMAGES_PREFIX}*`, miss);
  if (existsSync(clientDir)) {
    // Scripts and stylesheets come from memory; the rest (and the requests memory does not hold as
    // they are) from disk, by @fastify/static's own route (decision 0204).
    const memory = assetsInMemory(clientDir, ASSETS_PREFIX);
    app.addHook('onRoute', (route) => {
      if (route.url !== `${ASSETS_PREFIX}*`) return;
      route.preHandler = [memory.preHandler, ...[route.preHandler ?? []].flat()];
    });
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: ASSETS_PREFIX,
      // Brotli and gzip twins written by the build are sent as they are.
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
      allowedPath: (path) => !path.startsWith('/.vite'),
    });
  }
  if (existsSync(`${publicDir}/images`)) {
    await app.register(fastifyStatic, {
      root: `${publicDir}/images`,
      prefix: IMAGES_PREFIX,
      decorateReply: false,
      maxAge: '1d',
      index: false,
    });
  }
}
