import { type CslpData, parseCslp } from '../cslp/parse.ts';
import { CSLP } from '../dom.ts';

/**
 * Instances of a multiple field: a tag whose path ends in an index
 * is one instance; its siblings share the parent path. The direction decides where add buttons sit
 * and what Move means: the container's `data-add-direction`, else the layout of the first two items.
 */

export type AddDirection = 'vertical' | 'horizontal' | 'none';

export const ADD_DIRECTION = 'data-add-direction';

/** The tag names one instance of a multiple field (its path ends in an index). */
export const isInstance = (cslp: CslpData): boolean =>
  cslp.multipleFieldMetadata.index !== -1 && cslp.instance.fieldPathWithIndex !== cslp.fieldPathWithIndex;

/** The tag of the field that holds the instance, in the document's own spelling (v2 prefix kept). */
export function parentTag(cslp: CslpData): string {
  return cslp.cslpValue.slice(0, cslp.cslpValue.lastIndexOf('.'));
}

/** The elements of the instances of the multiple field tagged `fieldTag`, in index order. */
export function instancesOf(doc: Document, fieldTag: string): Element[] {
  const items: [number, Element][] = [];
  for (const element of Array.from(doc.querySelectorAll(`[${CSLP}]`))) {
    const tag = element.getAttribute(CSLP) ?? '';
    if (!tag.startsWith(`${fieldTag}.`)) continue;
    const rest = tag.slice(fieldTag.length + 1);
    if (/^\d+$/.test(rest)) items.push([Number(rest), element]);
  }
  return items.sort((a, b) => a[0] - b[0]).map(([, element]) => element);
}

/** The field's own element: tagged with `fieldTag`, or the common parent of its instances. */
export function fieldElement(doc: Document, fieldTag: string, items: Element[]): Element | null {
  const own = Array.from(doc.querySelectorAll(`[${CSLP}]`)).find((el) => el.getAttribute(CSLP) === fieldTag);
  return own ?? items[0]?.parentElement ?? null;
}

export function addDirection(container: Element | null, items: Element[]): AddDirection {
  const declared = container?.closest(`[${ADD_DIRECTION}]`)?.getAttribute(ADD_DIRECTION);
  if (declared === 'vertical' || declared === 'horizontal' || declared === 'none') return declared;
  const [first, second] = items;
  if (!first || !second) return 'vertical';
  const a = first.getBoundingClientRect();
  const b = second.getBoundingClientRect();
  return Math.abs(b.left - a.left) > Math.abs(b.top - a.top) ? 'horizontal' : 'vertical';
}

export const tagOf = (element: Element): CslpData | null => parseCslp(element.getAttribute(CSLP) ?? '');
