import { createContext, type ReactNode, useContext } from 'react';
import { useRender } from './context.ts';

/** The footnote ids cited so far inside the component being rendered. */
const CitedHere = createContext<Set<string> | null>(null);

/**
 * Citations for footnote ids: `<sup><a href="#{anchor}">{index}</a></sup>`.
 * Ids the page did not collect render nothing.
 */
export function Cite({ ids }: { ids: readonly string[] }) {
  const { footnote, citedAnchors, t } = useRender();
  const here = useContext(CitedHere);
  const notes = [...new Set(ids)].map(footnote).filter((n) => n !== undefined);
  if (notes.length === 0) return null;
  return (
    <>
      {notes.map((note) => {
        here?.add(note.id);
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

/**
 * Every component cites every footnote it carries: a component that places citations itself (next
 * to a price, a feature) keeps them there, and whatever it did not cite follows it. The server
 * renders a component's tree before its next sibling, so the ids it cited are known by then.
 */
export function CitingComponent({ ids, children }: { ids: readonly string[]; children: ReactNode }) {
  if (ids.length === 0) return children;
  const here = new Set<string>();
  return (
    <CitedHere.Provider value={here}>
      {children}
      <Uncited ids={ids} here={here} />
    </CitedHere.Provider>
  );
}

function Uncited({ ids, here }: { ids: readonly string[]; here: Set<string> }) {
  const rest = ids.filter((id) => !here.has(id));
  if (rest.length === 0) return null;
  return (
    <p className="component-cites">
      <Cite ids={rest} />
    </p>
  );
}
