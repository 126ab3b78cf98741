import type { CSSProperties } from 'react';

export interface ImageField {
  url: string;
  alt: string;
  width: number;
  height: number;
}

const WIDTHS = [480, 800, 1200, 1600, 2000];

/**
 * A responsive image: `srcset` widths in the image service's `?width=` form (the CMS image API; the
 * embedded store's SVGs ignore it), intrinsic width/height against layout shift, lazy below the fold.
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
  const widths = WIDTHS.filter((w) => w <= image.width * 1.25);
  const srcSet = widths.map((w) => `${image.url}?width=${w} ${w}w`).join(', ');
  return (
    <img
      src={image.url}
      srcSet={srcSet || undefined}
      sizes={sizes}
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
