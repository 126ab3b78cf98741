import t from 'tap';
import { POPUP_DEFAULT } from '../timing.ts';
import { popupPosition } from './placement.ts';

/** The thread popup beside its pin (spec 9: 334 × 198 px by default, 8 px gap, 16 px margins). */

const VIEW = { width: 1280, height: 800 };
const pin = (left: number, top: number) => ({ left, top, right: left + 32 });

t.test('right of the pin with an 8 px gap, top aligned, when there is room', async (t) => {
  t.same(popupPosition(pin(100, 200), POPUP_DEFAULT, VIEW), { left: 140, top: 200 });
});

t.test('left of the pin when the right side would leave the viewport', async (t) => {
  t.same(popupPosition(pin(1000, 200), POPUP_DEFAULT, VIEW), { left: 1000 - 8 - 334, top: 200 });
});

t.test('kept 16 px inside the viewport at the bottom and the top', async (t) => {
  t.same(popupPosition(pin(100, 700), POPUP_DEFAULT, VIEW), { left: 140, top: 800 - 16 - 198 });
  t.same(popupPosition(pin(100, -50), POPUP_DEFAULT, VIEW), { left: 140, top: 16 });
});

t.test('a laid-out popup is placed with its own size; an unmeasured one with the default', async (t) => {
  t.same(popupPosition(pin(100, 700), { width: 332, height: 420 }, VIEW), { left: 140, top: 800 - 16 - 420 });
  t.same(popupPosition(pin(100, 700), { width: 0, height: 0 }, VIEW), { left: 140, top: 800 - 16 - 198 });
  t.same(popupPosition(pin(950, 100), { width: 0, height: 0 }, VIEW), { left: 950 - 8 - 334, top: 100 });
});
