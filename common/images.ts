/**
 * The image route's URL shape, shared by the server that answers it and the component that writes
 * `srcset` (docs/decisions/0157-image-route.md).
 */

/** The only widths made: any other width asked for snaps to the next one up, so URLs cannot bust the cache. */
export const IMAGE_WIDTHS = [320, 480, 640, 800, 1080, 1280, 1600, 2000] as const;

/** Where resized variants are served: `/img/{width}/{hash}/{name}`. */
export const IMAGE_ROUTE_PREFIX = '/img/';

/** A raster source the route resizes: a plain file name in the images folder, never a path. */
export const RASTER_NAME = /^[a-z0-9][a-z0-9_-]{0,79}\.(?:jpe?g|png|webp|avif)$/;

/** The first 12 hex digits of the source's SHA-256: a new photograph gets new URLs. */
export const SOURCE_HASH = /^[0-9a-f]{12}$/;

/** The fixed width a request for `width` is served at; undefined past the largest (refused). */
export function snapWidth(width: number): number | undefined {
  return IMAGE_WIDTHS.find((fixed) => fixed >= width);
}

export function variantUrl(width: number, hash: string, name: string): string {
  return `${IMAGE_ROUTE_PREFIX}${width}/${hash}/${name}`;
}

/** A `srcset` over the image route's widths for a source `sourceWidth` pixels wide (never enlarged). */
export function routeSrcSet(hash: string, name: string, sourceWidth: number): string {
  const candidates: string[] = [];
  for (const width of IMAGE_WIDTHS) {
    // The first fixed width at or past the source's is the source itself, at its own width.
    candidates.push(`${variantUrl(width, hash, name)} ${Math.min(width, sourceWidth)}w`);
    if (width >= sourceWidth) break;
  }
  return candidates.join(', ');
}

/** A Contentstack asset URL (Image Delivery API, one host per region): host, path, query. */
const CONTENTSTACK_IMAGE = /^https:\/\/((?:[a-z0-9-]+-)?images\.contentstack\.(?:io|com))(\/[^?#\s]*)(?:\?([^#\s]*))?$/;

/**
 * A `srcset` for a Contentstack asset: its Image Delivery API resizes (`width`) and picks WebP for
 * browsers that take it (`auto=webp`), so nothing is made here (docs/decisions/0160). Up to the
 * first fixed width at or past `maxWidth`, the width the entry gives the image. Undefined for any
 * other URL, and for SVG (never rasterised).
 */
export function contentstackSrcSet(url: string, maxWidth: number): string | undefined {
  const match = CONTENTSTACK_IMAGE.exec(url);
  if (!match) return undefined;
  const [, host, path = '', query = ''] = match;
  if (/\.svg$/i.test(path)) return undefined;
  // The asset's own parameters (environment, version) are kept; ours replace any of the same name.
  const kept = query.split('&').filter((pair) => pair && !/^(?:width|auto)=/.test(pair));
  const candidates: string[] = [];
  for (const width of IMAGE_WIDTHS) {
    candidates.push(`https://${host}${path}?${[...kept, `width=${width}`, 'auto=webp'].join('&')} ${width}w`);
    if (width >= maxWidth) break;
  }
  return candidates.join(', ');
}
