import { HOVER_DEBOUNCE_MS, proximity } from '../timing.ts';
import { type BuilderContext, ignore } from './context.ts';
import { describe, taggedTarget } from './field-info.ts';
import { tagOf } from './instances.ts';

/**
 * Hover: the tagged field under the pointer gets an outline and a cursor showing its type, greyed
 * when it cannot be edited. Moves are handled once they pause (10 ms).
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
