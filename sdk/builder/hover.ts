import type { CslpData } from '../cslp/parse.ts';
import { HOVER_DEBOUNCE_MS, proximity } from '../timing.ts';
import { type BuilderContext, type Described, type Hovered, ignore, lastSegment } from './context.ts';
import { describe, labelStack, taggedTarget } from './field-info.ts';
import { tagOf } from './instances.ts';
import { hoverNames, type Label, labelOf, referencedText } from './label.ts';
import { textsOf } from './text.ts';

/**
 * Hover: the tagged field under the pointer gets an outline and a cursor showing its type, greyed
 * when it cannot be edited, and (4.x) the hover toolbar: its label with the field path, the content
 * type's name and where the entry is referenced from. Moves are handled once they pause (10 ms).
 */

/** Whether the pointer is on `element` or within its proximity margin. */
export function nearby(element: Element, x: number, y: number): boolean {
  const r = element.getBoundingClientRect();
  const dx = proximity(r.width);
  const dy = proximity(r.height);
  return x >= r.left - dx && x <= r.right + dx && y >= r.top - dy && y <= r.bottom + dy;
}

export function hideHover(ctx: BuilderContext): void {
  ctx.hovered = null;
  ctx.ui.hideHover();
  ctx.ui.hideCursor();
  ctx.ui.renderHoverLabel(null);
}

/** The hover toolbar of a described field: drawn at once from the schema, again once the editor's names arrive. */
function showLabel(ctx: BuilderContext, hovered: Hovered, described: Described, cslp: CslpData): void {
  const { element } = hovered;
  const draw = (names: Record<string, string> | null | undefined, label: Label | undefined) => {
    if (ctx.hovered !== hovered || ctx.focused) return;
    const path = labelStack(element, cslp)
      .map(
        (item, i) =>
          names?.[item.cslp.cslpValue] ??
          (i === 0 ? described.schema?.display_name : undefined) ??
          lastSegment(item.cslp.fieldPath || item.cslp.content_type_uid),
      )
      .reverse()
      .join(' › ');
    ctx.ui.renderHoverLabel(element, {
      path,
      icon: described.type || 'empty',
      disabled: Boolean(described.reason),
      contentType: label?.contentType ?? '',
      referenced: referencedText(textsOf(ctx.config.messages), label),
    });
  };
  draw(undefined, undefined);
  Promise.all([hoverNames(ctx, element, cslp), labelOf(ctx, element, cslp)])
    .then(([names, label]) => draw(names, label))
    .catch(ignore);
}

interface Move {
  clientX: number;
  clientY: number;
  element: HTMLElement | null;
}

export function startHover(ctx: BuilderContext): void {
  const { win, doc, ui, signal } = ctx;
  /** The last pointer position and its tagged element, read while the event is dispatched (composedPath is empty later). */
  let lastMove: Move | undefined;
  let hoverTimer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    clearTimeout(hoverTimer);
    hoverTimer = undefined;
  };

  function runHover(): void {
    hoverTimer = undefined;
    const event = lastMove;
    if (!event) return;
    let element: Element | null = event.element;
    const previous = ctx.hovered?.element;
    // Leaving a field for its container within the proximity margin keeps the field.
    if (
      previous?.isConnected &&
      element !== previous &&
      (!element || element.contains(previous)) &&
      nearby(previous, event.clientX, event.clientY)
    )
      element = previous;
    if (!element || element === ctx.focused?.element) {
      hideHover(ctx);
      return;
    }
    const cslp = tagOf(element);
    if (element !== previous) {
      const current = { element } as NonNullable<BuilderContext['hovered']>;
      ctx.hovered = current;
      ui.showHover(element, false);
      if (!cslp) ui.showCursor(event.clientX, event.clientY, 'empty', true);
      else
        describe(ctx, element, cslp)
          .then((described) => {
            if (ctx.hovered !== current) return;
            current.described = described;
            ui.showHover(element, Boolean(described.reason));
            showLabel(ctx, current, described, cslp);
            const at = lastMove ?? event;
            ui.showCursor(at.clientX, at.clientY, described.type || 'empty', Boolean(described.reason));
          })
          .catch(ignore);
    }
    const described = ctx.hovered?.described;
    ui.showCursor(
      event.clientX,
      event.clientY,
      cslp ? (described ? described.type || 'empty' : 'loading') : 'empty',
      described ? Boolean(described.reason) : !cslp,
    );
  }

  win.addEventListener(
    'mousemove',
    (event) => {
      // Collaboration has the pointer while it is on, paused or not (hide-focus-overlay).
      if (ctx.config.collab.enable) {
        if (ctx.hovered) hideHover(ctx);
        return;
      }
      lastMove = { clientX: event.clientX, clientY: event.clientY, element: taggedTarget(ctx, event) };
      hoverTimer ??= setTimeout(runHover, HOVER_DEBOUNCE_MS);
    },
    { signal },
  );
  doc.documentElement.addEventListener(
    'mouseleave',
    () => {
      cancel();
      hideHover(ctx);
    },
    { signal },
  );
  signal.addEventListener('abort', cancel, { once: true });
}
