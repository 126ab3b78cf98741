import { computePosition, flip, offset, type Padding, type Placement, platform, shift } from '@floating-ui/dom';

/**
 * Every floating surface of the builder and collaboration is placed here, by Floating UI: fixed,
 * `gap` px from its reference on the `placement` side, flipped to the opposite (or the
 * `fallbacks`) side when that leaves the viewport and kept `margin` px inside it (per side when
 * given per side). A surface not laid out yet (0 × 0) is placed with `size`, its default, when
 * given. Resolves to the side it went to, or undefined where nothing can be measured (a test DOM):
 * the UI still works.
 */
export function float(
  reference: Element,
  floating: HTMLElement,
  placement: Placement,
  {
    gap = 8,
    margin = 8,
    fallbacks,
    size,
  }: { gap?: number; margin?: Padding; fallbacks?: Placement[]; size?: { width: number; height: number } } = {},
): Promise<Placement | undefined> {
  return computePosition(reference, floating, {
    strategy: 'fixed',
    placement,
    platform: size ? withDefaultSize(size) : platform,
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

/** Floating UI's DOM platform, measuring a floating element that has no size yet as `size`. */
function withDefaultSize(size: { width: number; height: number }): typeof platform {
  return {
    ...platform,
    async getElementRects(elements) {
      const rects = await platform.getElementRects(elements);
      const { floating } = rects;
      return floating.width || floating.height ? rects : { ...rects, floating: { ...floating, ...size } };
    },
  };
}
