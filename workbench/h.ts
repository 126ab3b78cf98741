/**
 * `h(tag, props, ...children)`: the workbench's markup helper. Props are element properties, or
 * attributes when named `data-*` / `aria-*`. (The SDK builds its few nodes with `sdk/el.ts`; the
 * workbench's forms are mostly nested markup, which this reads better for.)
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & Record<string, unknown> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith('data-') || key.startsWith('aria-')) element.setAttribute(key, String(value));
    else (element as unknown as Record<string, unknown>)[key] = value;
  }
  element.append(...children);
  return element;
}
