import type { ComponentEntry } from '../../common/content.ts';
import Parallax, { type ParallaxProps } from '../../islands/parallax/Parallax.tsx';
import { useRender } from '../render/context.ts';
import { Island } from '../render/island.tsx';
import type { ComponentProps } from './types.ts';

type ParallaxEntry = ComponentEntry & ParallaxProps;

/**
 * How wide the parallax image is drawn, for its `sizes`: it covers a box as wide as the viewport and
 * 1.3 times the banner's height (components.css: `clamp(24rem, 70vh, 42rem)`), so on a phone in
 * portrait its height decides, at the image's own aspect ratio.
 */
function drawnWidth(width: number, height: number): string {
  return `max(100vw, calc(${((1.3 * width) / height).toFixed(3)} * clamp(24rem, 70vh, 42rem)))`;
}

/**
 * The parallax banner is an island, hydrated only when it scrolls into view. A photograph gets the
 * image route's `srcset` (decision 0219), sized to the box it covers.
 */
export function ParallaxBanner({ entry }: ComponentProps<ParallaxEntry>) {
  const { imageSrcSet } = useRender();
  const { url, alt, width, height } = entry.image;
  const srcSet = imageSrcSet(url, width);
  const props: ParallaxProps = {
    headline: entry.headline,
    image: { url, alt, width, height, ...(srcSet ? { srcSet, sizes: drawnWidth(width, height) } : {}) },
    ...(entry.text ? { text: entry.text } : {}),
  };
  return <Island name="parallax" component={Parallax} props={props} strategy="visible" />;
}
