import morphdom from 'morphdom';
import { Html } from './html.ts';

/**
 * A surface drawn from templates: each render brings the container's children to the template in
 * place (morphdom, the page morph's library), so nodes that did not change are the same nodes and
 * focus, scroll position and the caret survive. What a person typed in a field is theirs: its value
 * is never taken from the template; code that changes it sets it on the element.
 */
export interface Surface {
  /** Draws `template()`; the handlers it registers with `on` replace the last render's. */
  render(template: () => Html): void;
  /** An attribute for an element of the template being drawn: `run` handles `type` events at it. */
  on(type: EventType, run: (event: Event, target: HTMLElement) => void): Html;
}

type EventType = 'click' | 'mousedown';

const isField = (node: Element): node is HTMLInputElement | HTMLTextAreaElement =>
  node.localName === 'textarea' || node.localName === 'input';

export function surface(container: Element, signal: AbortSignal): Surface {
  let handlers: ((event: Event, target: HTMLElement) => void)[] = [];
  // One listener per event type on the container, which outlives every node a render changes.
  for (const type of ['click', 'mousedown'] as const)
    container.addEventListener(
      type,
      (event) => {
        const target = (event.target as Element | null)?.closest?.<HTMLElement>(`[data-${type}]`);
        if (target && container.contains(target))
          handlers[Number(target.getAttribute(`data-${type}`))]?.(event, target);
      },
      { signal },
    );
  return {
    render(template) {
      handlers = [];
      const next = container.cloneNode(false) as Element;
      next.innerHTML = template().markup;
      morphdom(container, next, {
        childrenOnly: true,
        onBeforeElUpdated(from, to) {
          if (isField(from) && isField(to)) to.value = from.value;
          return true;
        },
      });
    },
    on: (type, run) => new Html(`data-${type}="${handlers.push(run) - 1}"`),
  };
}
