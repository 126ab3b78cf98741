import type { ComponentEntry } from '../../common/content.ts';
import { useRender } from '../render/context.ts';
import { sanitizeCmsHtml } from '../sanitize.ts';
import type { ComponentProps } from './types.ts';

interface FaqEntry extends ComponentEntry {
  title: string;
  items: { question: string; answer: string }[];
}

/** Questions as native `<details>`: keyboard and screen-reader support without script. */
export function Faq({ entry, path }: ComponentProps<FaqEntry>) {
  const { cslp } = useRender();
  return (
    <section className="faq" {...cslp(path)}>
      <h2 {...cslp(`${path}.title`)}>{entry.title}</h2>
      {entry.items.map((item, i) => (
        <details key={item.question} {...cslp(`${path}.items.${i}`)}>
          <summary {...cslp(`${path}.items.${i}.question`)}>{item.question}</summary>
          <div
            className="prose"
            {...cslp(`${path}.items.${i}.answer`)}
            dangerouslySetInnerHTML={{ __html: sanitizeCmsHtml(item.answer) }}
          />
        </details>
      ))}
    </section>
  );
}
