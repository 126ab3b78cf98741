/** Creates `<tag class="className">`, appended to `parent` when given: the layer's one DOM-building helper. */
export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  className = '',
  parent?: Node,
): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  parent?.appendChild(node);
  return node;
}

/** A button that never submits a form, with its visible text. */
export function button(doc: Document, className: string, text: string, parent?: Node): HTMLButtonElement {
  const node = el(doc, 'button', className, parent);
  node.type = 'button';
  node.textContent = text;
  return node;
}
