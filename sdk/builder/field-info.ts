import type { CslpData } from '../cslp/parse.ts';
import { CSLP } from '../dom.ts';
import type { BuilderContext, Described } from './context.ts';
import { disabledState } from './disabled.ts';
import { fieldType } from './field-type.ts';
import { tagOf } from './instances.ts';
import { textsOf } from './text.ts';

/** What the builder knows about a field: its description from the editor, and where it sits among tagged elements. */

export async function describe(ctx: BuilderContext, element: Element, cslp: CslpData): Promise<Described> {
  const [map, allowed, stage, inVariant] = await Promise.all([
    ctx.schemaFor(cslp.content_type_uid),
    ctx.permissionsFor(cslp),
    ctx.stageFor(cslp),
    ctx.inVariant(cslp),
  ]);
  const schema = map[cslp.fieldPath];
  const { reason, request } = disabledState(
    {
      cslp,
      schema,
      permissions: allowed,
      stage,
      inVariant,
      element,
      masterLocale: ctx.config.stackDetails.masterLocale,
      locale: ctx.state.locale,
      variant: ctx.state.variant,
      audienceMode: ctx.state.audienceMode,
    },
    textsOf(ctx.config.messages),
  );
  return { schema, type: fieldType(schema), reason, request };
}

/** The first tagged element on the event's path, stopping at `<body>`; the builder's own UI is not the page. */
export function taggedTarget(ctx: BuilderContext, event: Event): HTMLElement | null {
  for (const node of event.composedPath()) {
    if (node === ctx.doc.body || node === ctx.ui.host) return null;
    if (node instanceof ctx.win.HTMLElement && node.hasAttribute(CSLP)) return node;
  }
  return null;
}

const prefixOf = (cslp: CslpData) => `${cslp.content_type_uid}.${cslp.entry_uid}.${cslp.locale}`;

/** Tagged ancestors of `element`, nearest first. */
function* taggedAncestors(element: Element): Generator<Element> {
  for (let node = element.parentElement?.closest(`[${CSLP}]`); node; node = node.parentElement?.closest(`[${CSLP}]`))
    yield node;
}

/** The edit stack the editor expects: the clicked field and its tagged ancestors of other entries, outermost first. */
export function editStack(element: Element, cslp: CslpData): CslpData[] {
  const stack = [cslp];
  for (const node of taggedAncestors(element)) {
    const parent = tagOf(node);
    if (parent && stack[0] && prefixOf(parent) !== prefixOf(stack[0])) stack.unshift(parent);
  }
  return stack;
}

/** The field and up to two tagged ancestors, unique by tag (get-field-display-names). */
export function labelStack(element: Element, cslp: CslpData): { element: HTMLElement; cslp: CslpData }[] {
  const stack = [{ element: element as HTMLElement, cslp }];
  for (const node of taggedAncestors(element)) {
    if (stack.length >= 3) break;
    const parent = tagOf(node);
    if (parent && !stack.some((item) => item.cslp.cslpValue === parent.cslpValue))
      stack.push({ element: node as HTMLElement, cslp: parent });
  }
  return stack;
}
