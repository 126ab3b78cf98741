import { POPUP_DEFAULT, POPUP_GAP_PX, POPUP_MARGIN_PX } from '../timing.ts';

/**
 * Where the thread popup goes (spec 9): beside its pin with an 8 px gap, on the right unless that
 * leaves the viewport, then on the left; kept 16 px inside the viewport. The popup's own size is
 * used once it is laid out; before that, the default 334 × 198 px.
 */

interface Box {
  left: number;
  top: number;
  right: number;
}

/** The popup's top-left corner in viewport pixels (the popup is `position: fixed`). */
export function popupPosition(
  pin: Box,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
): { left: number; top: number } {
  const width = size.width || POPUP_DEFAULT.width;
  const height = size.height || POPUP_DEFAULT.height;
  let left = pin.right + POPUP_GAP_PX;
  if (left + width > viewport.width - POPUP_MARGIN_PX)
    left = Math.max(POPUP_MARGIN_PX, pin.left - POPUP_GAP_PX - width);
  const top = Math.max(POPUP_MARGIN_PX, Math.min(pin.top, viewport.height - POPUP_MARGIN_PX - height));
  return { left, top };
}
