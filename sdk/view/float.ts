import { computePosition, flip, offset, type Placement, shift } from '@floating-ui/dom';

/**
 * Every floating surface of the builder and collaboration is placed here, by Floating UI: fixed,
 * `gap` px from its reference on the `placement` side, flipped to the opposite (or the
 * `fallbacks`) side when that leaves the viewport and kept `margin` px inside it. Resolves to the
 * side it went to, or undefined where nothing can be measured (a test DOM): the UI still works.
 */
export function float(
  reference: Element,
  floating: HTMLElement,
  placement: Placement,
  { gap = 8, margin = 8, fallbacks }: { gap?: number; margin?: number; fallbacks?: Placement[] } = {},
): Promise<Placement | undefined> {
  return computePosition(reference, floating, {
    strategy: 'fixed',
    placement,
    middleware: [
      offset(gap),
      flip({ padding: margin, fallbackPlacements: fallbacks }),
      shift({ padding: margin, crossAxis: true }),
    ],
  })
    .then(({ x, y, placement: side }) => {
      floating.style.left = `${x}px`;
      floating.style.top = `${y}px`;
      return side;
    })
    .catch(() => undefined);
}
