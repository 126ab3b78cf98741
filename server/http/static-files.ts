import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ASSETS_PREFIX } from '../render/assets.ts';

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
      prefix: '/images/',
      decorateReply: false,
      maxAge: '1d',
      index: false,
    });
  }
}
