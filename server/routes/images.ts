import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import Negotiator from 'negotiator';
import { IMAGE_ROUTE_PREFIX, RASTER_NAME, SOURCE_HASH, snapWidth } from '../../common/images.ts';
import type { ImageSources } from '../images/sources.ts';
import { CONTENT_TYPES, ImageRefused, type VariantFormat, VariantMaker } from '../images/variants.ts';

const WIDTH = /^[1-9][0-9]{0,4}$/;

/**
 * The format the request's Accept names explicitly and ranks highest (q-value, then the header's
 * order): `*∕*` and `image/*` promise nothing about AVIF or WebP.
 */
export function negotiateFormat(accept: string | undefined, hasAlpha: boolean): VariantFormat {
  // Negotiator lists the named types best first, dropping q=0.
  const named = new Negotiator({ headers: { accept: accept ?? '' } }).mediaTypes();
  const best = named.find((type) => type === 'image/avif' || type === 'image/webp');
  if (best) return best === 'image/avif' ? 'avif' : 'webp';
  return hasAlpha ? 'png' : 'jpeg';
}

/** A refusal: a line of text, never cached, never the request's own input. */
function refuse(reply: FastifyReply, status: number, message: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${message}\n`);
}

/**
 * `GET /img/{width}/{hash}/{name}`: a raster image of the store's images folder at one of the fixed
 * widths, in the best format the browser accepts (docs/decisions/0157-image-route.md). The URL names
 * the source's content hash, so the answer is immutable; it varies with Accept.
 */
export const imageRoutes: FastifyPluginAsync<{ sources: ImageSources; variants: VariantMaker }> = async (
  app,
  { sources, variants },
) => {
  app.get<{ Params: { width: string; hash: string; name: string } }>(
    `${IMAGE_ROUTE_PREFIX}:width/:hash/:name`,
    async (request, reply) => {
      const { width, hash, name } = request.params;
      // One spelling per variant: a query string would be a new URL for a CDN to keep.
      if (request.url.includes('?')) return refuse(reply, 400, 'An image URL takes no query string');
      if (!WIDTH.test(width)) return refuse(reply, 400, 'The width must be a whole number of pixels');
      const snapped = snapWidth(Number(width));
      if (snapped === undefined) return refuse(reply, 400, 'The width is larger than any image is made');
      const source = RASTER_NAME.test(name) && SOURCE_HASH.test(hash) ? sources.get(name) : undefined;
      if (!source) return refuse(reply, 404, 'Not found');
      if (!source.usable) return refuse(reply, 422, `The image cannot be resized: ${source.reason}`);
      // An old hash names a photograph that is no longer there.
      if (source.hash !== hash) return refuse(reply, 404, 'Not found');
      const format = negotiateFormat(request.headers.accept, source.hasAlpha);
      const etag = `"${VariantMaker.key(source, snapped, format)}"`;
      reply.header('vary', 'Accept');
      if (request.headers['if-none-match'] === etag)
        return reply.status(304).header('etag', etag).header('cache-control', IMMUTABLE).send();
      try {
        const body = await variants.get(source, snapped, format);
        return reply.header('cache-control', IMMUTABLE).header('etag', etag).type(CONTENT_TYPES[format]).send(body);
      } catch (error) {
        if (!(error instanceof ImageRefused)) throw error;
        // Encoders busy: the photograph as it is, never kept, rather than a hole in the page.
        if (error.status === 503) return sendOriginal(reply, source.file);
        request.log.warn({ image: name }, error.message);
        return refuse(reply, error.status, error.message);
      }
    },
  );
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

const ORIGINAL_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** The source file as it is (a static file's cost), `no-store` so the variant is asked for again next time. */
async function sendOriginal(reply: FastifyReply, file: string) {
  const type = ORIGINAL_TYPES[extname(file).slice(1)] ?? 'application/octet-stream';
  return reply
    .header('cache-control', 'no-store')
    .type(type)
    .send(await readFile(file));
}
