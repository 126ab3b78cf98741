import type { ComponentEntry, Footnote } from '../../common/content.ts';
import { isRecord } from '../../common/is-record.ts';

/**
 * Footnote collection: pricing footnotes from any
 * `pricingFootnotesContainer`, content footnotes from PATENT_INFORMATION / LEGAL_INFORMATION objects
 * inside `benefitGroups[].contents[]`, `featuredBenefits[]` and `productFeatures[]`, at any depth.
 * One footnote per id; the 1-based index follows first appearance in page order.
 */

/** Keys whose value is a content area; `benefitGroups` is one only through each group's `contents`. */
const CONTENT_AREAS = new Set(['featuredBenefits', 'productFeatures']);
const BENEFIT_GROUPS = 'benefitGroups';
const GROUP_CONTENTS = 'contents';
const CONTENT_TYPES = new Set(['PATENT_INFORMATION', 'LEGAL_INFORMATION']);
const DESCRIPTION_FIELDS = ['longText', 'shortText', 'subTitleText', 'titleText'] as const;

type Json = Record<string, unknown>;

/** A content object is a footnote source when it has one of the legal types and a name. */
export function isContentFootnote(value: unknown): value is Json & { name: string } {
  return (
    isRecord(value) && CONTENT_TYPES.has(value.type as string) && typeof value.name === 'string' && value.name !== ''
  );
}

function contentDescription(source: Json): string {
  for (const field of DESCRIPTION_FIELDS) {
    const text = source[field];
    if (typeof text === 'string' && text.trim() !== '') return text;
  }
  return '';
}

/** `LEGAL info/1` → `fn-legal-info-1`: ids come from the CMS, anchors must be safe fragment ids. */
function anchorBase(id: string): string {
  const slug = id
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `fn-${slug || 'note'}`;
}

/** One footnote as a component carries it, before numbering. */
export interface FootnoteSource {
  id: string;
  description: string;
  type: Footnote['type'];
}

/**
 * The footnote sources one component carries, in document order and without repeats: the one walk
 * both the collection (numbering) and the citations (every component cites what it carries) use.
 * A legal section holds finished footnotes; it is a destination, not a source.
 */
export function footnoteSources(component: ComponentEntry): FootnoteSource[] {
  let sources = sourcesOf.get(component);
  if (!sources) {
    sources = walkSources(component);
    sourcesOf.set(component, sources);
  }
  return sources;
}

/** Components are not changed once loaded, and every render of a page asks again: walked once each. */
const sourcesOf = new WeakMap<ComponentEntry, FootnoteSource[]>();

function walkSources(component: ComponentEntry): FootnoteSource[] {
  if (component._content_type_uid === 'legal_section_block') return [];
  const found = new Map<string, FootnoteSource>();
  const add = (id: string, description: string, type: Footnote['type']) => {
    if (!found.has(id)) found.set(id, { id, description, type });
  };
  /** `inGroups`: `value` is (an item of) a `benefitGroups` list, whose `contents` are a content area. */
  const visit = (value: unknown, inContentArea: boolean, inGroups: boolean): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, inContentArea, inGroups);
      return;
    }
    if (!isRecord(value)) return;
    if (inContentArea && isContentFootnote(value)) add(value.name, contentDescription(value), 'content');
    for (const [key, child] of Object.entries(value)) {
      if (key === 'pricingFootnotesContainer') {
        for (const item of pricingFootnotes(child)) add(item.code, item.formattedFootnote, 'pricing');
      } else {
        const area = inContentArea || CONTENT_AREAS.has(key) || (inGroups && key === GROUP_CONTENTS);
        visit(child, area, Array.isArray(child) && key === BENEFIT_GROUPS);
      }
    }
  };
  visit(component, false, false);
  return [...found.values()];
}

export class FootnoteCollection {
  #byId = new Map<string, Footnote>();
  #anchors = new Set<string>();

  /** Registers the footnotes of `components` in order; `clear` rebuilds the collection from scratch. */
  register(components: readonly ComponentEntry[], options: { clear?: boolean } = {}): void {
    if (options.clear) {
      this.#byId.clear();
      this.#anchors.clear();
    }
    for (const component of components) {
      for (const source of footnoteSources(component)) this.#add(source);
    }
  }

  get footnotes(): Footnote[] {
    return [...this.#byId.values()];
  }

  /** The footnote a citation points to, or undefined for an id never registered. */
  get(id: string): Footnote | undefined {
    return this.#byId.get(id);
  }

  /** Reserves an anchor, so footnotes a legal block brings along cannot collide with collected ones. */
  reserveAnchor(anchor: string): string {
    let candidate = anchor;
    for (let n = 2; this.#anchors.has(candidate); n++) candidate = `${anchor}-${n}`;
    this.#anchors.add(candidate);
    return candidate;
  }

  #add({ id, description, type }: FootnoteSource): void {
    if (this.#byId.has(id)) return;
    const anchor = this.reserveAnchor(anchorBase(id));
    this.#byId.set(id, { id, description, type, anchor, index: this.#byId.size + 1 });
  }
}

/** The `{ code, formattedFootnote }` items of a pricingFootnotesContainer, skipping malformed ones. */
export function pricingFootnotes(container: unknown): { code: string; formattedFootnote: string }[] {
  if (!isRecord(container) || !Array.isArray(container.pricingFootnotes)) return [];
  return container.pricingFootnotes.filter(
    (item): item is { code: string; formattedFootnote: string } =>
      isRecord(item) && typeof item.code === 'string' && item.code !== '' && typeof item.formattedFootnote === 'string',
  );
}

/** Ids of the content footnotes nested anywhere in `value` (a feature, a benefit), in order. */
export function contentFootnoteIds(value: unknown): string[] {
  const ids: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isRecord(node)) {
      if (isContentFootnote(node)) ids.push(node.name);
      Object.values(node).forEach(visit);
    }
  };
  visit(value);
  return ids;
}
