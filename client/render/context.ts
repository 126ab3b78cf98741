import { createContext, useContext } from 'react';
import type { Footnote } from '../../common/content.ts';
import type { Translate } from '../i18n/messages.ts';

/** Where an island's code lives: its chunk URL from the build manifest. */
export type IslandUrl = (name: string) => string;

/** Everything a component needs from the page besides its own fields. */
export interface RenderContext {
  locale: string;
  t: Translate;
  formatPrice(amount: number, currency: string): string;
  footnote(id: string): Footnote | undefined;
  /** Anchors already cited once: the first citation of each gets the id the legal item links back to. */
  citedAnchors: Set<string>;
  /** `data-cslp` attributes in preview, nothing for visitors. */
  cslp(path: string): { 'data-cslp'?: string };
  islandUrl: IslandUrl;
  /** An image's `srcset` (the image route's variants, or the CMS's own resizing), or undefined: served as it is. */
  imageSrcSet(url: string, width: number): string | undefined;
  /** Components before this index are above the fold: only the first hero gets fetchpriority=high. */
  firstHeroUid: string | undefined;
  dev: boolean;
  /** The data backend islands talk to, when it is not this site's own `/graphql`. */
  dataEndpoint: string | undefined;
}

export const Render = createContext<RenderContext | null>(null);

export function useRender(): RenderContext {
  const value = useContext(Render);
  if (!value) throw new Error('useRender() outside a page render');
  return value;
}
