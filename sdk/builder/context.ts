import { later } from '../abort.ts';
import type { Config } from '../config/types.ts';
import type { CslpData } from '../cslp/parse.ts';
import type { PageWindow } from '../dom.ts';
import { logger } from '../logger.ts';
import { LOCK_ANSWER_MS } from '../timing.ts';
import type { Channel } from '../transport/channel.ts';
import { BUILDER_ERRORS } from './errors.ts';
import type { FieldSchema, FieldType } from './field-type.ts';
import type { Label } from './label.ts';
import {
  type Discussion,
  type FieldApp,
  type Permissions,
  readPermissions,
  readSchemaReply,
  readVariantPermission,
  readWorkflowStage,
  type SchemaMap,
  type VariantPermission,
  type VariantStatus,
  type VbReceived,
  type VbSent,
  type WorkflowStage,
} from './protocol.ts';
import type { Pseudo } from './pseudo.ts';
import type { BuilderUi } from './ui.ts';

/**
 * What the builder's features share: the page, the editor's channel, the surfaces, the editor's
 * view of the page (locale, variant, audience mode), what is hovered and focused, and the signal
 * whose abort ends every feature's listeners, observers and timers.
 */

/** A field as the editor describes it: its schema, its type, and why it cannot be edited ('' when it can). */
export interface Described {
  schema: FieldSchema | undefined;
  type: FieldType;
  reason: string;
  /** What the lock offers: asking for edit access (or a request pending), or linking the variant (4.x). */
  request?: 'request' | 'pending' | 'link' | undefined;
}

export interface Hovered {
  element: Element;
  described?: Described;
}

export interface Focused extends Described {
  element: HTMLElement;
  cslp: CslpData;
  editing: boolean;
  input: boolean;
  initialHtml: string;
  /** What takes the typing: the field, or its pseudo-editable copy; and how to stop. */
  edit: { target: HTMLElement; stop(): void } | null;
  pseudo: Pseudo | null;
  /** The field's comment thread: undefined while asked for, null when the editor offers none. */
  discussion: Discussion | null | undefined;
  /** Display names by tag once the editor answered; null after an error answer. */
  names: Record<string, string> | null | undefined;
  status: VariantStatus | undefined;
  // 4.x: the label's content-type name and referring field, and the field-location apps.
  label: Label | undefined;
  apps: FieldApp[];
  /** Aborted when the focus ends: the editing's listeners and the pseudo copy go with it. */
  signal: AbortSignal;
  end(): void;
}

export interface BuilderContext {
  win: PageWindow;
  doc: Document;
  config: Config;
  /** The visual-builder channel, limited to the builder's requests. */
  channel: Channel<VbSent, VbReceived>;
  ui: BuilderUi;
  /** Aborted by `destroy`. */
  signal: AbortSignal;
  /**
   * What the editor last said about the page; 4.x adds whether variant fields are highlighted and
   * the variants' order of priority (`variantOrder`, lowest first). `fourX`: the editor answered
   * the highlight status, which a 3.2.5 editor refuses, so it expects 4.x behaviour.
   */
  state: {
    locale: string;
    variant: string | undefined;
    audienceMode: boolean;
    highlight: boolean;
    variantOrder: string[];
    fourX: boolean;
  };
  hovered: Hovered | null;
  focused: Focused | null;
  /** Counts focus starts and ends: the answer for a focus that was overtaken is dropped. */
  focusRun: number;
  /** Field schemas of a content type, asked once and kept until the variant changes. */
  schemaFor(contentTypeUid: string): Promise<SchemaMap>;
  /** Forgets the schemas (another variant has other restrictions). */
  forgetSchemas(): void;
  /** Entry permissions, asked once per entry, content type and locale. */
  permissionsFor(cslp: CslpData): Promise<Permissions>;
  /** The entry's workflow stage, kept per entry, content type, locale and variant. */
  stageFor(cslp: CslpData): Promise<WorkflowStage>;
  /** Whether the field exists in its variant, kept per field. */
  inVariant(cslp: CslpData): Promise<VariantPermission>;
  /** Forgets the stage and variant answers for `cslp`'s entry, or all of them (the entry changed). */
  forgetLocks(cslp?: CslpData): void;
}

export function createContext(
  base: Pick<BuilderContext, 'win' | 'config' | 'channel' | 'ui' | 'signal'>,
): BuilderContext {
  const { channel } = base;
  const schemas = new Map<string, Promise<SchemaMap>>();
  const permissions = new Map<string, Promise<Permissions>>();
  const stages = new Map<string, Promise<WorkflowStage>>();
  const variants = new Map<string, Promise<VariantPermission>>();
  const entryKey = (cslp: CslpData) =>
    `${cslp.entry_uid}.${cslp.content_type_uid}.${cslp.locale}.${cslp.variant ?? ''}`;
  const bounded = <K extends keyof VbSent, T>(
    type: K,
    payload: VbSent[K]['payload'],
    read: (value: unknown) => T,
  ): Promise<T> => askWithin(base, type, payload, read, LOCK_ANSWER_MS);
  const kept = <T>(cache: Map<string, Promise<T>>, key: string, ask: () => Promise<T>) => {
    let answer = cache.get(key);
    if (!answer) {
      answer = ask();
      cache.set(key, answer);
    }
    return answer;
  };
  return {
    ...base,
    doc: base.win.document,
    state: {
      locale: 'en-us',
      variant: undefined,
      audienceMode: false,
      highlight: false,
      variantOrder: [],
      fourX: false,
    },
    hovered: null,
    focused: null,
    focusRun: 0,
    schemaFor(contentTypeUid) {
      let schema = schemas.get(contentTypeUid);
      if (!schema) {
        schema = channel.send('get-field-schema', { contentTypeUid }).then(readSchemaReply);
        // A failed request is not cached: the next hover asks again.
        schema.catch(() => schemas.delete(contentTypeUid));
        schemas.set(contentTypeUid, schema);
      }
      return schema;
    },
    forgetSchemas: () => schemas.clear(),
    permissionsFor(cslp) {
      const key = `${cslp.entry_uid}.${cslp.content_type_uid}.${cslp.locale}`;
      let answer = permissions.get(key);
      if (!answer) {
        answer = channel
          .send('get-permissions', {
            type: 'entry',
            entryUid: cslp.entry_uid,
            contentTypeUid: cslp.content_type_uid,
            locale: cslp.locale,
          })
          .then(readPermissions, (error: unknown) => {
            logger.error(BUILDER_ERRORS.PERMISSIONS_FAILED, error);
            return readPermissions(undefined);
          });
        permissions.set(key, answer);
      }
      return answer;
    },
    stageFor(cslp) {
      return kept(stages, entryKey(cslp), () =>
        bounded(
          'get-workflow-stage-details',
          {
            entryUid: cslp.entry_uid,
            contentTypeUid: cslp.content_type_uid,
            locale: cslp.locale,
            variantUid: cslp.variant,
          },
          readWorkflowStage,
        ),
      );
    },
    inVariant(cslp) {
      return kept(variants, `${entryKey(cslp)}.${cslp.fieldPathWithIndex}`, () =>
        bounded(
          'get-resolved-variant-permissions',
          {
            content_type_uid: cslp.content_type_uid,
            entry_uid: cslp.entry_uid,
            locale: cslp.locale,
            variant: cslp.variant,
            fieldPathWithIndex: cslp.fieldPathWithIndex,
          },
          readVariantPermission,
        ),
      );
    },
    forgetLocks(cslp) {
      if (!cslp) {
        stages.clear();
        variants.clear();
        return;
      }
      const key = entryKey(cslp);
      stages.delete(key);
      for (const field of [...variants.keys()]) if (field.startsWith(`${key}.`)) variants.delete(field);
    },
  };
}

/** The answer read by `read`; an error, or none within `ms`, reads as an empty answer. */
export function askWithin<K extends keyof VbSent, T>(
  { channel, signal }: Pick<BuilderContext, 'channel' | 'signal'>,
  type: K,
  payload: VbSent[K]['payload'],
  read: (value: unknown) => T,
  ms: number,
): Promise<T> {
  return new Promise<T>((resolve) => {
    const cancel = later(signal, () => resolve(read(undefined)), ms);
    channel.send(type, payload).then(
      (value) => {
        cancel();
        resolve(read(value));
      },
      (error: unknown) => {
        cancel();
        logger.debug(type, error);
        resolve(read(undefined));
      },
    );
  });
}

/** For requests whose failure changes nothing on the page. */
export const ignore = (error: unknown) => logger.debug(error);
export const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** Text as the editor stores it: `innerText` turns `<br>` into line breaks (update-field). */
export function textOf(element: HTMLElement): string {
  const text = (element as { innerText?: unknown }).innerText;
  return typeof text === 'string' ? text : (element.textContent ?? '');
}

/** The builder's attribute on the focused field, for its custom cursor and the site's styles. */
export const FIELD_TYPE_ATTRIBUTE = 'data-cslp-field-type';
