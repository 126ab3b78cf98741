/**
 * Where the thread popup goes (spec 9): beside its pin with an 8 px gap, on the right unless that
 * leaves the viewport, then on the left; kept 16 px inside the viewport. The popup's own size is
 * used once it is laid out; before that, the default 334 × 198 px.
 */

export const POPUP_DEFAULT = { width: 334, height: 198 } as const;
const GAP = 8;
const MARGIN = 16;

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
  let left = pin.right + GAP;
  if (left + width > viewport.width - MARGIN) left = Math.max(MARGIN, pin.left - GAP - width);
  const top = Math.max(MARGIN, Math.min(pin.top, viewport.height - MARGIN - height));
  return { left, top };
}
