import type { ComponentEntry } from '../../common/content.ts';
import { useRender } from '../render/context.ts';
import { sanitizeCmsHtml } from '../sanitize.ts';
import type { ComponentProps } from './types.ts';

interface RichTextEntry extends ComponentEntry {
  title?: string;
  text: string;
}

/** Renders its title and its text (HTML, sanitised). */
export function RichText({ entry, path }: ComponentProps<RichTextEntry>) {
  const { cslp } = useRender();
  return (
    <section className="rich-text" {...cslp(path)}>
      {entry.title ? <h2 {...cslp(`${path}.title`)}>{entry.title}</h2> : null}
      <div
        className="prose"
        {...cslp(`${path}.text`)}
        dangerouslySetInnerHTML={{ __html: sanitizeCmsHtml(entry.text) }}
      />
    </section>
  );
}
