import type { ComponentEntry } from '../../common/content.ts';
import Parallax, { type ParallaxProps } from '../../islands/parallax/Parallax.tsx';
import { Island } from '../render/island.tsx';
import type { ComponentProps } from './types.ts';

type ParallaxEntry = ComponentEntry & ParallaxProps;

/** The parallax banner is an island, hydrated only when it scrolls into view. */
export function ParallaxBanner({ entry }: ComponentProps<ParallaxEntry>) {
  const props: ParallaxProps = {
    headline: entry.headline,
    image: entry.image,
    ...(entry.text ? { text: entry.text } : {}),
  };
  return <Island name="parallax" component={Parallax} props={props} strategy="visible" />;
}
