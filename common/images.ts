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
