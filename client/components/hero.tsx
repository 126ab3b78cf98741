import type { ComponentEntry } from '../../common/content.ts';
import { useRender } from '../render/context.ts';
import { Image, type ImageField } from './image.tsx';
import type { ComponentProps } from './types.ts';

interface HeroEntry extends ComponentEntry {
  headline: string;
  subline?: string;
  image?: ImageField;
  cta?: { label: string; url: string };
}

export function Hero({ entry, path }: ComponentProps<HeroEntry>) {
  const { cslp, firstHeroUid } = useRender();
  const priority = entry.uid === firstHeroUid;
  return (
    <section className={entry.image ? 'hero hero-with-image' : 'hero'} {...cslp(path)}>
      <div className="hero-text">
        <h2 className="hero-headline" {...cslp(`${path}.headline`)}>
          {entry.headline}
        </h2>
        {entry.subline ? (
          <p className="hero-subline" {...cslp(`${path}.subline`)}>
            {entry.subline}
          </p>
        ) : null}
        {entry.cta?.url.startsWith('/') && !entry.cta.url.startsWith('//') ? (
          <a className="button" href={entry.cta.url} {...cslp(`${path}.cta.label`)}>
            {entry.cta.label}
          </a>
        ) : null}
      </div>
      {entry.image ? (
        <Image
          className="hero-image"
          image={entry.image}
          sizes="(min-width: 960px) 50vw, 100vw"
          priority={priority}
          cslp={cslp(`${path}.image`)}
        />
      ) : null}
    </section>
  );
}
