import type { CslpData } from '../sdk/cslp/parse.ts';
import { h } from './h.ts';
import type { EditorChannel } from './protocol.ts';

/**
 * The workbench's field-location apps (4.x): two dummy apps offered for every field, so the toolbar
 * shows one app button and a "More apps" list. Choosing one opens a dialog with what the page sent
 * (`field-location-selected-app`); while it is open the page does not scroll (`toggle-scroll`), as
 * under an app the Contentstack editor opens.
 */

const DUMMIES = [
  ['payload-viewer', 'Payload viewer'],
  ['field-inspector', 'Field inspector'],
] as const;

/** The apps of the field at the end of the edit stack, in 4.4.1's shape. */
export function fieldApps(domEditStack: CslpData[], displayName: (fieldPath: string) => string) {
  const field = domEditStack.at(-1);
  if (!field) return [];
  return DUMMIES.map(([uid, title]) => ({
    uid,
    title,
    app_installation_uid: `workbench-${uid}`,
    app_uid: `workbench-${uid}`,
    contentTypeUid: field.content_type_uid,
    entryUid: field.entry_uid,
    fieldDataType: 'text',
    fieldDisplayName: displayName(field.fieldPath),
    fieldPath: field.fieldPath,
    locale: field.locale,
    manifest: {
      uid: `workbench-${uid}`,
      name: title,
      description: 'Shows what the page sends',
      icon: '',
      visibility: 'private',
    },
  }));
}

/** Opens the chosen app: a modal dialog with the payload; the page scrolls again once it closes. */
export function openFieldApp(
  vb: EditorChannel,
  payload: { app?: { title?: unknown } },
  say: (text: string) => void,
): void {
  const title = typeof payload.app?.title === 'string' ? payload.app.title : 'App';
  const close = h('button', { type: 'button', className: 'wb-app-close' }, 'Close');
  const dialog = h(
    'dialog',
    { className: 'wb-app', 'aria-label': title },
    h('h2', {}, title),
    h('pre', { 'data-testid': 'workbench-app-payload' }, JSON.stringify(payload, null, 2)),
    close,
  );
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    vb.send('toggle-scroll', { scroll: true }).catch((error: Error) => say(`toggle-scroll: ${error.message}`));
  });
  document.body.append(dialog);
  dialog.showModal();
  vb.send('toggle-scroll', { scroll: false }).catch((error: Error) => say(`toggle-scroll: ${error.message}`));
}
