import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ASSETS_PREFIX } from '../render/assets.ts';

const IMAGES_PREFIX = '/images/';

/** A request for a file sent from disk as it is: cheap, and a page already served needs it. */
export const isStaticFile = (url: string) => url.startsWith(ASSETS_PREFIX) || url.startsWith(IMAGES_PREFIX);

/** The build's hashed assets (immutable, precompressed twins sent as they are) and the demo images. */
export async function serveFiles(
  app: FastifyInstance,
  { clientDir, publicDir }: { clientDir: string; publicDir: string },
) {
  if (existsSync(clientDir)) {
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
  if (existsSync(publicDir)) {
    await app.register(fastifyStatic, {
      root: `${publicDir}/images`,
      prefix: IMAGES_PREFIX,
      decorateReply: false,
      maxAge: '1d',
      index: false,
    });
  }
}
