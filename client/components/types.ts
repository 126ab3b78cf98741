import type { ComponentEntry } from '../../common/content.ts';

/** Props every registered component receives: its entry and the cslp path of that entry. */
export interface ComponentProps<T extends ComponentEntry = ComponentEntry> {
  entry: T;
  /** `page_template.{uid}.{locale}.body_components.2` style base for data-cslp field paths. */
  path: string;
}
