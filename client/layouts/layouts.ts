import type { LayoutName } from '../../common/content.ts';

/**
 * The six page layouts. They differ only in which chrome surrounds the content, so
 * they are rows of one table rather than six components. Each has its own stylesheet entry
 * (client/layouts/{name}.css) loaded only on pages that use it.
 */
export interface LayoutSpec {
  /** 'island': the interactive header (when enabled); 'logo': brand only; 'none': nothing. */
  header: 'island' | 'logo' | 'none';
  breadcrumbs: boolean;
  switchers: boolean;
  footer: boolean;
}

export const LAYOUTS: Record<LayoutName, LayoutSpec> = {
  default: { header: 'island', breadcrumbs: true, switchers: true, footer: true },
  base: { header: 'island', breadcrumbs: false, switchers: true, footer: true },
  'base-static': { header: 'logo', breadcrumbs: true, switchers: true, footer: true },
  'base-logo-only': { header: 'logo', breadcrumbs: false, switchers: false, footer: false },
  'base-minimal': { header: 'none', breadcrumbs: false, switchers: false, footer: true },
  minimal: { header: 'none', breadcrumbs: false, switchers: false, footer: false },
};

export const LAYOUT_NAMES = Object.keys(LAYOUTS) as LayoutName[];
