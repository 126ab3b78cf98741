import { isRecord } from '../../common/is-record.ts';
import { CSLP, LAYER_OWNED, type PageWindow } from '../dom.ts';
import { logger } from '../logger.ts';
import type { Channel } from '../transport/channel.ts';

/**
 * Highlighted-comment icons: `highlight-active-comments-by-data-cs` puts an icon
 * next to each field that has a discussion, 25 px left of it; a click sends
 * `open-field-comment-modal` with the field's data; `remove-highlighted-comments` clears them.
 */

const ICON_OFFSET = 25;
const CLASS = 'collab-comment-icon';

interface Highlight {
  fieldMetadata: { content_type_uid?: string; entry_uid?: string; locale?: string; fieldPath?: string };
  fieldSchema?: unknown;
  discussion?: unknown;
  absolutePath?: string;
}

/** Tagged elements of the field: `ct.entry.locale.path`, with or without the `v2:` prefix and a variant. */
export function fieldElements(doc: Document, item: Highlight): Element[] {
  const { content_type_uid: ct, entry_uid: entry, locale } = item.fieldMetadata;
  const path = item.absolutePath ?? item.fieldMetadata.fieldPath;
  if (!ct || !entry || !locale || !path) return [];
  return Array.from(doc.querySelectorAll(`[${CSLP}]`)).filter((el) => {
    const parts = (el.getAttribute(CSLP) ?? '').replace(/^v2:/, '').split('.');
    return (
      parts[0] === ct &&
      (parts[1] ?? '').split('_')[0] === entry &&
      parts[2] === locale &&
      parts.slice(3).join('.') === path
    );
  });
}

/** The two editor handlers, for the caller to register on the channel. */
export function commentIconHandlers(
  win: PageWindow,
  channel: Channel,
  root: ShadowRoot,
): Record<string, (data: unknown) => unknown> {
  const doc = win.document;
  const remove = () => {
    for (const icon of Array.from(root.querySelectorAll(`.${CLASS}`))) icon.remove();
  };
  const highlight = (data: unknown) => {
    const list = isRecord(data) && Array.isArray(data.payload) ? data.payload : [];
    for (const item of list) {
      if (!isRecord(item) || !isRecord(item.fieldMetadata)) continue;
      const field = item as unknown as Highlight;
      for (const element of fieldElements(doc, field)) {
        const rect = element.getBoundingClientRect();
        const icon = doc.createElement('button');
        icon.type = 'button';
        icon.className = CLASS;
        icon.setAttribute(LAYER_OWNED, '');
        icon.setAttribute('aria-label', 'Open comments');
        icon.textContent = '💬';
        icon.style.left = `${rect.left + win.scrollX - ICON_OFFSET}px`;
        icon.style.top = `${rect.top + win.scrollY}px`;
        icon.addEventListener('click', (event) => {
          event.stopPropagation();
          channel
            .send('open-field-comment-modal', {
              fieldMetadata: field.fieldMetadata,
              discussion: field.discussion,
              fieldSchema: field.fieldSchema,
              absolutePath: field.absolutePath,
            })
            .catch((error: unknown) => logger.error(error));
        });
        root.appendChild(icon);
      }
    }
    return undefined;
  };
  return {
    'highlight-active-comments-by-data-cs': highlight,
    'remove-highlighted-comments': () => {
      remove();
      return undefined;
    },
  };
}
