import type { LegalSectionBlock } from '../../common/content.ts';
import { useRender } from '../render/context.ts';
import { sanitizeInlineHtml } from '../sanitize.ts';
import type { ComponentProps } from './types.ts';

/**
 * Each footnote's item has `id="{anchor}"`, the target of its citations; a note the page collected
 * links back to its first citation. Every collected note is cited (CitingComponent), also by zones
 * rendered after this section (the footer), so this does not wait to see the citation; the block's
 * own notes are cited by nothing.
 */
export function LegalSection({ entry, path }: ComponentProps<LegalSectionBlock>) {
  const { cslp, t, footnote } = useRender();
  const headingId = `${entry.sectionId}-title`;
  return (
    <section
      id={entry.sectionId}
      className="legal"
      aria-labelledby={headingId}
      data-theme={entry.theming?.theme ?? 'dark'}
      data-background={entry.theming?.background ?? 'backdrop'}
      {...cslp(path)}
    >
      <h2 id={headingId} {...cslp(`${path}.title`)}>
        {entry.title}
      </h2>
      <ol className="footnotes">
        {entry.footnotes.map((note) => (
          <li key={note.anchor} id={note.anchor} data-footnote-type={note.type}>
            <span className="footnote-index" aria-hidden="true">
              {note.index}
            </span>
            <span
              className="footnote-text"
              dangerouslySetInnerHTML={{ __html: sanitizeInlineHtml(note.description) }}
            />
            {footnote(note.id)?.anchor === note.anchor ? (
              <a
                className="footnote-back"
                href={`#cite-${note.anchor}`}
                aria-label={t('legal.backToReference', { index: note.index })}
              >
                ↩
              </a>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
