import type { CSSProperties } from 'react';
import { useRender } from '../render/context.ts';

export interface ImageField {
  url: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * A responsive image: a `srcset` over the image route's fixed widths (the store's raster images,
 * AVIF or WebP as the browser accepts) or over the CMS image API's (Contentstack assets); SVG and
 * other images as they are. Intrinsic width/height against layout shift, lazy below the fold. The
 * hero (`priority`) is fetched at high priority: React writes its preload into the head from these
 * very props, so the preload and the `<img>` name the same `srcset` (docs/decisions/0157).
 */
export function Image({
  image,
  sizes,
  priority = false,
  className,
  style,
  cslp,
}: {
  image: ImageField;
  sizes: string;
  priority?: boolean;
  className?: string;
  style?: CSSProperties;
  cslp?: { 'data-cslp'?: string };
}) {
  const { imageSrcSet } = useRender();
  const srcSet = imageSrcSet(image.url, image.width);
  return (
    <img
      src={image.url}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding={priority ? 'sync' : 'async'}
      className={className}
      style={style}
      {...cslp}
    />
  );
}
