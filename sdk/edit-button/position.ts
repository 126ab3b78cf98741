import { proximity } from '../timing.ts';

/**
 * Where the edit tooltip goes. The tooltip is 72 px wide; it is placed as if 40 px
 * high (35 px drawn, 5 px gap) with a 5 px margin. Unknown positions fall back to `top`.
 */

const WIDTH = 72;
const HALF_WIDTH = 36;
const HEIGHT = 40;
const MARGIN = 5;

export interface Box {
  top: number;
  left: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

export function tooltipPosition(rect: Box, position: string): { top: number; left: number } {
  const centre = rect.left + rect.width / 2 - HALF_WIDTH;
  const [top, left] = (
    {
      'top-center': [rect.top - HEIGHT, centre],
      'top-right': [rect.top - HEIGHT, rect.right - WIDTH],
      right: [rect.top - MARGIN, rect.right + MARGIN],
      left: [rect.top - MARGIN, rect.left - WIDTH - MARGIN],
      bottom: [rect.bottom + MARGIN, rect.left - MARGIN],
      'bottom-left': [rect.bottom + MARGIN, rect.left - MARGIN],
      'bottom-center': [rect.bottom + MARGIN, centre],
      'bottom-right': [rect.bottom + MARGIN, rect.right - WIDTH],
    } as Record<string, [number, number]>
  )[position] ?? [rect.top - HEIGHT, rect.left - MARGIN];
  // Scrolled past: keep the tooltip on screen while the element still is.
  return { top: top < 0 ? Math.min(rect.top, 0) : top, left };
}

/**
 * Whether the pointer is in the strip between an element and its tooltip, where moving towards the
 * tooltip must not move the highlight to another element underneath.
 */
export function inSafeZone(pointer: { x: number; y: number }, tooltip: Box, position: string, element: Box): boolean {
  if (!(tooltip.left > 0) || !(tooltip.top > 0)) return false;
  const vertical = position.includes('top') || position.includes('bottom');
  const distance = proximity(vertical ? element.width : element.height);
  if (vertical) {
    const gap = Math.abs((position.includes('top') ? tooltip.bottom : tooltip.top) - pointer.y);
    return pointer.x > tooltip.left - distance && pointer.x < tooltip.right + distance && gap < distance;
  }
  const gap = Math.abs((position.includes('left') ? tooltip.right : tooltip.left) - pointer.x);
  return pointer.y > tooltip.top - distance && pointer.y < tooltip.bottom + distance && gap < distance;
}
