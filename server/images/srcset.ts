import { contentstackSrcSet, routeSrcSet } from '../../common/images.ts';
import type { ImageSources } from './sources.ts';

/** An image's `srcset` on a page: the image route for the store's raster images, Contentstack's API for its assets, else none. */
export type ImageSrcSet = (url: string, width: number) => string | undefined;

export function imageSrcSet(sources: ImageSources | undefined): ImageSrcSet {
  return (url, width) => {
    const source = sources?.ofUrl(url);
    return source ? routeSrcSet(source.hash, source.name, source.width) : contentstackSrcSet(url, width);
  };
}
