import type { CslpData } from '../cslp/parse.ts';
import { CSLP } from '../dom.ts';
import { LABEL_ANSWER_MS } from '../timing.ts';
import { askWithin, type BuilderContext } from './context.ts';
import { labelStack } from './field-info.ts';
import { tagOf } from './instances.ts';
import {
  type ReferenceParent,
  readContentTypeName,
  readDisplayNames,
  readReferenceMap,
  type VbSent,
} from './protocol.ts';
import { fill, type Texts } from './text.ts';

/**
 * What the field label says beyond the field's name (4.x): its content type's name
 * (`get-content-type-name`) and, for an entry referenced from another, the referring field
 * (`get-reference-map`); on hover also the display names of the field and its parents. 4.4.1 asks
 * all of them on every hover; here the answers are kept while hovering and asked again when a field
 * is focused or the entry changes (`forgetLabels`). An answer not given within LABEL_ANSWER_MS
 * (or an error) leaves that part out.
 */

export interface Label {
  /** The content type's name, '' when the editor gave none. */
  contentType: string;
  /** Where the field's entry is referenced from, when it is. */
  parent: ReferenceParent | undefined;
}

interface Kept {
  contentTypes: Map<string, Promise<string>>;
  references: Promise<Record<string, ReferenceParent[]>> | undefined;
  names: Map<string, Promise<Record<string, string> | null>>;
}

const kept = new WeakMap<BuilderContext, Kept>();

function keptFor(ctx: BuilderContext): Kept {
  let answers = kept.get(ctx);
  if (!answers) {
    answers = { contentTypes: new Map(), references: undefined, names: new Map() };
    kept.set(ctx, answers);
  }
  return answers;
}

/** Forgets every kept answer: the next hover or focus asks again. */
export function forgetLabels(ctx: BuilderContext): void {
  kept.delete(ctx);
}

const ask = <K extends keyof VbSent, T>(
  ctx: BuilderContext,
  type: K,
  payload: VbSent[K]['payload'],
  read: (v: unknown) => T,
) => askWithin(ctx, type, payload, read, LABEL_ANSWER_MS);

/**
 * The referring field of `cslp`'s entry: the one whose content type tags an enclosing element on the
 * page, else the first the editor names (as 4.4.1 chooses).
 */
function parentOf(element: Element, cslp: CslpData, map: Record<string, ReferenceParent[]>) {
  const parents = map[cslp.entry_uid];
  if (!parents) return undefined;
  for (let node = element.parentElement?.closest(`[${CSLP}]`); node; node = node.parentElement?.closest(`[${CSLP}]`)) {
    const outer = tagOf(node);
    if (!outer || outer.content_type_uid === cslp.content_type_uid) continue;
    return parents.find((parent) => parent.contentTypeUid === outer.content_type_uid) ?? parents[0];
  }
  return parents[0];
}

export async function labelOf(ctx: BuilderContext, element: Element, cslp: CslpData): Promise<Label> {
  const answers = keptFor(ctx);
  const uid = cslp.content_type_uid;
  let name = answers.contentTypes.get(uid);
  if (!name) {
    name = ask(ctx, 'get-content-type-name', { content_type_uid: uid }, readContentTypeName);
    answers.contentTypes.set(uid, name);
  }
  answers.references ??= ask(ctx, 'get-reference-map', {}, readReferenceMap);
  const [contentType, map] = await Promise.all([name, answers.references]);
  return { contentType, parent: parentOf(element, cslp, map) };
}

/** Display names of the field and up to two parents (the hover's field path); null when the editor gave none. */
export function hoverNames(ctx: BuilderContext, element: Element, cslp: CslpData) {
  const stack = labelStack(element, cslp).map((item) => item.cslp);
  const key = stack.map((item) => item.cslpValue).join(' ');
  const answers = keptFor(ctx);
  let names = answers.names.get(key);
  if (!names) {
    names = ask(ctx, 'get-field-display-names', stack, readDisplayNames);
    answers.names.set(key, names);
  }
  return names;
}

/** "Referenced from …" for a label, '' when the entry is not referenced. */
export const referencedText = (texts: Texts, label: Label | undefined): string =>
  label?.parent
    ? fill(texts.referencedFrom, { field: label.parent.referenceFieldName, contentType: label.parent.contentTypeTitle })
    : '';
