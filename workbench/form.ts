import type { CslpData } from '../sdk/cslp/parse.ts';
import type { Drafts } from './drafts.ts';
import { cslpBase, type EditedEntry, editableFields, type FormField, getAt, type Json, setAt } from './entries.ts';
import { h } from './h.ts';

/**
 * The entries form beside the page: one fieldset per entry, one input per text or number field.
 * Typing saves a draft; a value the page writes (builder) lands in the entry, the input and a
 * draft. Two switches per entry and field make the editor answer "read-only", and a third per entry
 * locks it in a workflow stage (4.x), to try the layer's disabled states.
 */

export interface EntriesForm {
  element: HTMLElement;
  entries: EditedEntry[];
  /** Entries answered with `update: false` (get-permissions). */
  readOnly: Set<EditedEntry>;
  /** `{content type}:{field path without indexes}` answered with `updateRestrict` (get-field-schema). */
  lockedFields: Set<string>;
  /** `{content type}:{field path without indexes}` of the workbench variant's own fields (variant.ts). */
  variantFields: Set<string>;
  /** Entries whose workflow stage forbids editing (get-workflow-stage-details). */
  stageLocked: Set<EditedEntry>;
  /** Stage-locked entries whose editor asked for edit access (open-request-edit-access). */
  accessRequested: Set<EditedEntry>;
  entryOf(contentType: string, uid: string): EditedEntry | undefined;
  render(): void;
  /** The form field of a tag, brought into view and marked. */
  focusField(cslp: string): void;
  /** A value written from the page: into the entry, the form and the draft. */
  applyFromPage(meta: CslpData | undefined, data: unknown, announce: boolean): void;
  /** An add, move or delete from the page: applied to the entry, then the form is drawn again and saved. */
  structural(meta: CslpData | undefined, change: (value: Json) => boolean): Promise<void>;
}

export interface FormDeps {
  entries: EditedEntry[];
  drafts: Drafts;
  /** A read-only switch changed: the layer keeps permissions for the page's lifetime. */
  permissionsChanged(): void;
  /** A field lock changed: the layer re-asks schemas after `get-variant-id`. */
  schemasChanged(): void;
}

const schemaPath = (path: string) =>
  path
    .split('.')
    .filter((s) => !/^\d+$/.test(s))
    .join('.');

const inputFor = (side: HTMLElement, cslp: string) =>
  side.querySelector<HTMLInputElement>(`[data-cslp="${CSS.escape(cslp)}"]`);

export function createForm({ entries, drafts, permissionsChanged, schemasChanged }: FormDeps): EntriesForm {
  const element = h('aside', { className: 'wb-side', 'aria-label': 'Entries' });
  const readOnly = new Set<EditedEntry>();
  const lockedFields = new Set<string>();
  const variantFields = new Set<string>();
  const stageLocked = new Set<EditedEntry>();
  const accessRequested = new Set<EditedEntry>();
  const toggle = <T>(set: Set<T>, item: T, on: boolean) => (on ? set.add(item) : set.delete(item));

  function fieldInput(entry: EditedEntry, field: FormField): HTMLElement {
    const input =
      field.kind === 'multiline'
        ? h('textarea', { rows: 3, value: String(field.value) })
        : h('input', { type: field.kind === 'number' ? 'number' : 'text', value: String(field.value) });
    input.name = `${entry.contentType}.${entry.uid}.${field.path}`;
    input.dataset.cslp = `${cslpBase(entry)}.${field.path}`;
    const lockKey = `${entry.contentType}:${schemaPath(field.path)}`;
    input.disabled = readOnly.has(entry) || lockedFields.has(lockKey);
    input.addEventListener('input', () => {
      const value: Json = field.kind === 'number' ? Number(input.value) : input.value;
      if (setAt(entry.value, field.path, value)) drafts.saveSoon(entry);
    });
    const lock = h('input', { type: 'checkbox', checked: lockedFields.has(lockKey), name: `lock:${input.name}` });
    lock.addEventListener('change', () => {
      toggle(lockedFields, lockKey, lock.checked);
      form.render();
      schemasChanged();
    });
    // The layer asks again whether the field exists in the variant when it is focused: no reload.
    const inVariant = h('input', {
      type: 'checkbox',
      checked: variantFields.has(lockKey),
      name: `variant:${input.name}`,
    });
    inVariant.addEventListener('change', () => toggle(variantFields, lockKey, inVariant.checked));
    return h(
      'div',
      { className: 'wb-field' },
      h('label', {}, h('span', {}, field.label), input),
      h(
        'label',
        { className: 'wb-lock', title: 'Answer get-field-schema with updateRestrict' },
        lock,
        ' read-only field',
      ),
      h(
        'label',
        { className: 'wb-lock', title: 'A field of the workbench variant (get-resolved-variant-permissions)' },
        inVariant,
        ' variant field',
      ),
    );
  }

  function fieldset(entry: EditedEntry): HTMLElement {
    const lock = h('input', { type: 'checkbox', checked: readOnly.has(entry) });
    lock.addEventListener('change', () => {
      toggle(readOnly, entry, lock.checked);
      form.render();
      permissionsChanged();
    });
    // The layer asks for the stage again when a field is focused: no reload.
    const stage = h('input', { type: 'checkbox', checked: stageLocked.has(entry) });
    stage.addEventListener('change', () => {
      toggle(stageLocked, entry, stage.checked);
      if (!stage.checked) accessRequested.delete(entry);
    });
    return h(
      'fieldset',
      { 'data-entry': cslpBase(entry) },
      h(
        'legend',
        {},
        `${entry.contentType} ${entry.uid}`,
        h('label', { className: 'wb-lock', title: 'Answer get-permissions with update: false' }, lock, ' read-only'),
        h(
          'label',
          { className: 'wb-lock', title: 'Answer get-workflow-stage-details with update: false' },
          stage,
          ' stage lock',
        ),
      ),
      ...editableFields(entry.value).map((field) => fieldInput(entry, field)),
    );
  }

  const form: EntriesForm = {
    element,
    entries,
    readOnly,
    lockedFields,
    variantFields,
    stageLocked,
    accessRequested,
    entryOf: (contentType, uid) => entries.find((e) => e.contentType === contentType && e.uid === uid),
    render: () => element.replaceChildren(...entries.map(fieldset)),
    focusField(cslp) {
      for (const marked of element.querySelectorAll('[data-focused]')) marked.removeAttribute('data-focused');
      const input = inputFor(element, cslp);
      if (!input) return;
      input.closest('.wb-field')?.setAttribute('data-focused', '');
      input.scrollIntoView({ block: 'nearest' });
    },
    applyFromPage(meta, data, announce) {
      const entry = meta && form.entryOf(meta.content_type_uid, meta.entry_uid);
      if (!meta || !entry || readOnly.has(entry)) return;
      const path = meta.instance.fieldPathWithIndex;
      const old = getAt(entry.value, path);
      const value: Json = typeof old === 'number' ? Number(data) : String(data ?? '');
      if (!setAt(entry.value, path, value)) return;
      const input = inputFor(element, `${cslpBase(entry)}.${path}`);
      if (input) input.value = String(value);
      void drafts.save(entry, announce);
    },
    async structural(meta, change) {
      const entry = meta && form.entryOf(meta.content_type_uid, meta.entry_uid);
      if (!entry || readOnly.has(entry) || !change(entry.value)) return;
      form.render();
      await drafts.save(entry);
    },
  };
  return form;
}
