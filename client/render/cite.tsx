import { useRender } from './context.ts';

/**
 * Citations for footnote ids (contract section 8): `<sup><a href="#{anchor}">{index}</a></sup>`.
 * Ids the page did not collect render nothing.
 */
export function Cite({ ids }: { ids: readonly string[] }) {
  const { footnote, citedAnchors, t } = useRender();
  const notes = [...new Set(ids)].map(footnote).filter((n) => n !== undefined);
  if (notes.length === 0) return null;
  return (
    <>
      {notes.map((note) => {
        const first = !citedAnchors.has(note.anchor);
        citedAnchors.add(note.anchor);
        return (
          <sup key={note.anchor} className="cite">
            <a
              href={`#${note.anchor}`}
              id={first ? `cite-${note.anchor}` : undefined}
              aria-label={t('footnote.citation', { index: note.index })}
            >
              {note.index}
            </a>
          </sup>
        );
      })}
    </>
  );
}
