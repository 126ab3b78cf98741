import type { ComponentEntry, Footnote, LegalSectionBlock } from '../../common/content.ts';
import type { FootnoteCollection } from './footnotes.ts';

export const LEGAL_SECTION_ID = 'legal-notes';

/**
 * Legal section placement: with no legal_section_block on the page, one is
 * appended after the body; otherwise the collected footnotes are prepended to the footnotes of the
 * last legal_section_block. Returns new arrays; the inputs are not changed.
 */
export function placeLegalSection(
  zones: { header: ComponentEntry[]; body: ComponentEntry[]; footer: ComponentEntry[] },
  collection: FootnoteCollection,
  title: string,
): { header: ComponentEntry[]; body: ComponentEntry[]; footer: ComponentEntry[] } {
  const collected = collection.footnotes;
  const order = ['header', 'body', 'footer'] as const;
  let last: { zone: (typeof order)[number]; index: number } | undefined;
  for (const zone of order) {
    zones[zone].forEach((c, index) => {
      if (c._content_type_uid === 'legal_section_block') last = { zone, index };
    });
  }
  if (!last) {
    if (collected.length === 0) return zones;
    const block: LegalSectionBlock = {
      _content_type_uid: 'legal_section_block',
      uid: LEGAL_SECTION_ID,
      title,
      footnotes: collected,
      sectionId: LEGAL_SECTION_ID,
      theming: { background: 'backdrop', theme: 'dark' },
    };
    return { ...zones, body: [...zones.body, block] };
  }
  const target = zones[last.zone][last.index] as LegalSectionBlock;
  // The block's own notes follow the collected ones; their anchors are reserved so none collide.
  const own: Footnote[] = (target.footnotes ?? []).map((f, i) => ({
    ...f,
    anchor: collection.reserveAnchor(f.anchor),
    index: collected.length + i + 1,
  }));
  const merged: LegalSectionBlock = { ...target, footnotes: [...collected, ...own] };
  const zone = zones[last.zone].map((c, i) => (i === last?.index ? merged : c));
  return { ...zones, [last.zone]: zone };
}
