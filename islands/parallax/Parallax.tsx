import { useEffect, useRef } from 'react';

export interface ParallaxProps {
  headline: string;
  text?: string;
  /** `srcSet` and `sizes` when the image has variants (a photograph through the image route). */
  image: { url: string; alt: string; width: number; height: number; srcSet?: string; sizes?: string };
}

/** How far the image drifts, as a fraction of the distance scrolled past the banner. */
const DEPTH = 0.25;

/**
 * Parallax banner: a rAF-throttled, passive scroll listener moves the
 * image. Under `prefers-reduced-motion: reduce` there is no effect and no listener at all.
 */
export default function Parallax({ headline, text, image }: ParallaxProps) {
  const root = useRef<HTMLElement>(null);
  const picture = useRef<HTMLImageElement>(null);

  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      const box = root.current?.getBoundingClientRect();
      if (!box || !picture.current) return;
      const offset = (box.top + box.height / 2 - window.innerHeight / 2) * -DEPTH;
      picture.current.style.transform = `translate3d(0, ${offset.toFixed(1)}px, 0) scale(1.2)`;
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  return (
    <section ref={root} className="parallax">
      <img
        ref={picture}
        className="parallax-image"
        src={image.url}
        srcSet={image.srcSet}
        sizes={image.srcSet ? image.sizes : undefined}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading="lazy"
        decoding="async"
      />
      <div className="parallax-content">
        <h2>{headline}</h2>
        {text ? <p>{text}</p> : null}
      </div>
    </section>
  );
}
