import { later, observe } from '../abort.ts';
import { parseCslp } from '../cslp/parse.ts';
import { CSLP } from '../dom.ts';
import { VARIANT_OBSERVER_TIMEOUT_MS } from '../timing.ts';
import type { Channel } from '../transport/channel.ts';
import type { BuilderContext } from './context.ts';
import { taggedElements } from './editor-messages.ts';
import { readVariantPatch, VARIANT_PATCH, type VariantPatch } from './protocol.ts';
import { markVariant } from './variants.ts';

/**
 * `variant-patch-update`: the editor has changed a field's variant data and the
 * site will re-render it under new tags. In audience mode, for 8 s, every tagged element whose
 * tag appears or changes is marked again. A new patch replaces the running watch.
 */
export function watchVariantPatches(ctx: BuilderContext, livePreview: Channel | undefined): void {
  let running: AbortController | undefined;
  function watch(patch: VariantPatch): void {
    const { win, doc, state } = ctx;
    const variant = state.variant ?? (patch.variant ? parseCslp(patch.variant)?.variant : undefined);
    if (!state.audienceMode || !variant) return;
    running?.abort();
    const current = new AbortController();
    running = current;
    const signal = AbortSignal.any([ctx.signal, current.signal]);
    state.highlight = patch.highlight;
    const mark = (element: Element) => {
      if (element.hasAttribute(CSLP)) markVariant(element, variant, patch.highlight, state.variantOrder);
    };
    // The site may have re-rendered before the message arrived.
    for (const element of taggedElements(doc)) {
      const tag = element.getAttribute(CSLP);
      if (tag === patch.variant || tag === patch.base) mark(element);
    }
    const options = { childList: true, subtree: true, attributes: true, attributeFilter: [CSLP] };
    observe(win, signal, doc.body, options, (records) => {
      for (const record of records) {
        if (record.type === 'attributes') mark(record.target as Element);
        for (const node of Array.from(record.addedNodes))
          if (node instanceof win.Element)
            for (const element of [node, ...node.querySelectorAll(`[${CSLP}]`)]) mark(element);
      }
    });
    later(signal, () => current.abort(), VARIANT_OBSERVER_TIMEOUT_MS);
  }
  livePreview?.on(VARIANT_PATCH, (data) => {
    watch(readVariantPatch(data));
  });
}
