import t from 'tap';
import { type Box, inSafeZone, tooltipPosition } from './position.ts';

/** Edit tooltip placement and the safe zone between an element and its tooltip. */

const box = (left: number, top: number, width: number, height: number): Box => ({
  left,
  top,
  width,
  height,
  right: left + width,
  bottom: top + height,
});
const element = box(100, 200, 300, 50);

t.test('every position, from the element rect (72 wide, placed as 40 high, 5 margin)', async (t) => {
  const expected: Record<string, { top: number; left: number }> = {
    top: { top: 160, left: 95 },
    'top-left': { top: 160, left: 95 },
    'top-center': { top: 160, left: 214 },
    'top-right': { top: 160, left: 328 },
    right: { top: 195, left: 405 },
    left: { top: 195, left: 23 },
    bottom: { top: 255, left: 95 },
    'bottom-left': { top: 255, left: 95 },
    'bottom-center': { top: 255, left: 214 },
    'bottom-right': { top: 255, left: 328 },
    sideways: { top: 160, left: 95 },
  };
  for (const [position, place] of Object.entries(expected)) t.same(tooltipPosition(element, position), place, position);
});

t.test('above the viewport the tooltip stays visible: 0, or the element top when that is negative', async (t) => {
  t.equal(tooltipPosition(box(10, 20, 100, 100), 'top').top, 0);
  t.equal(tooltipPosition(box(10, -30, 100, 100), 'top').top, -30);
});

t.test('safe zone: 10 % of the element, at most 30 px, between element and tooltip', async (t) => {
  const tooltip = box(150, 80, 50, 20);
  const target = box(100, 100, 200, 150);
  t.ok(inSafeZone({ x: 160, y: 105 }, tooltip, 'top', target), 'just below a top tooltip');
  t.notOk(inSafeZone({ x: 160, y: 200 }, tooltip, 'top', target), 'far below');
  t.ok(inSafeZone({ x: 160, y: 255 }, box(150, 260, 50, 20), 'bottom', target), 'just above a bottom tooltip');
  t.ok(inSafeZone({ x: 105, y: 160 }, box(80, 150, 20, 50), 'left', target), 'right of a left tooltip');
  t.ok(inSafeZone({ x: 305, y: 160 }, box(310, 150, 20, 50), 'right', target), 'left of a right tooltip');
  t.ok(inSafeZone({ x: 160, y: 115 }, tooltip, 'top', box(100, 100, 1000, 1000)), 'capped at 30 px: 15 px is inside');
  t.notOk(inSafeZone({ x: 160, y: 135 }, tooltip, 'top', box(100, 100, 1000, 1000)), '35 px is outside');
  t.notOk(inSafeZone({ x: 160, y: 105 }, box(-1, 80, 50, 20), 'top', target), 'a tooltip off screen has no zone');
});
