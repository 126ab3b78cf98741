import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ImageSources } from '../server/images/sources.ts';
import { imageSrcSet } from '../server/images/srcset.ts';
import { demoServer, HOSTS } from './helpers.ts';

/** What a page writes for its images (issue 34): srcsets through the image route, the hero preloaded with the same. */

const app = await demoServer({ images: { cacheDir: await mkdtemp(join(tmpdir(), 'vitrine-markup-cache-')) } });
t.teardown(() => app.close());
const page = await app.inject({ url: '/cs/kitchen/aquasense-60-dishwasher-4711', headers: { host: HOSTS.uk } });
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
const images = [...page.body.matchAll(/<img\s[^>]*>/g)].map(([tag]) => tag);

t.test(
  'the product photographs and the parallax banner have a srcset over the image route, a drawing none',
  async (t) => {
    const hero = images.find((tag) => tag.includes('hero-image')) ?? '';
    t.match(attribute(hero, 'src'), '/images/dishwasher.jpg');
    t.match(
      attribute(hero, 'srcSet'),
      /^\/img\/320\/[0-9a-f]{12}\/dishwasher\.jpg 320w, .* \/img\/2000\/[0-9a-f]{12}\/dishwasher\.jpg 2000w$/,
    );
    t.equal(attribute(hero, 'fetchPriority'), 'high');
    const teasers = images.filter((tag) => /src="\/images\/(oven|vacuum|washing-machine)\.jpg"/.test(tag));
    t.equal(teasers.length, 3);
    for (const tag of teasers) {
      t.match(attribute(tag, 'srcSet'), /^\/img\/320\//);
      t.equal(attribute(tag, 'loading'), 'lazy');
    }
    // The banner covers a box 1.3 times its height: on a phone its height decides the width drawn.
    const parallax = images.find((tag) => tag.includes('parallax-image')) ?? '';
    t.match(attribute(parallax, 'srcSet'), /^\/img\/320\/[0-9a-f]{12}\/parallax\.jpg 320w, .* 2000w$/);
    t.equal(attribute(parallax, 'sizes'), 'max(100vw, calc(2.311 * clamp(24rem, 70vh, 42rem)))');
    t.equal(attribute(parallax, 'loading'), 'lazy');
    const sources = await ImageSources.load(fileURLToPath(new URL('../public/images', import.meta.url)));
    t.equal(imageSrcSet(sources)('/images/parallax.svg', 1920), undefined, 'an SVG is sent as it is');
    t.ok(imageSrcSet(sources)('/images/parallax.jpg', 1920), 'its photograph has variants');
  },
);

t.test('the hero is preloaded in the head with the very srcset and sizes of its <img>', async (t) => {
  const head = page.body.slice(0, page.body.indexOf('</head>'));
  const preloads = [...head.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map(([tag]) => tag);
  t.equal(preloads.length, 1, 'one image preload: the hero');
  const hero = images.find((tag) => tag.includes('hero-image')) ?? '';
  const preload = preloads[0] ?? '';
  t.equal(attribute(preload, 'imageSrcSet'), attribute(hero, 'srcSet'));
  t.equal(attribute(preload, 'imageSizes'), attribute(hero, 'sizes'));
  t.equal(attribute(preload, 'fetchPriority'), 'high');
});

t.test('every candidate of every srcset is answered with an image', async (t) => {
  const urls = new Set(
    images.flatMap((tag) =>
      (attribute(tag, 'srcSet') ?? '')
        .split(', ')
        .filter(Boolean)
        .map((c) => c.split(' ')[0] ?? ''),
    ),
  );
  t.ok(urls.size >= 8 * 4, `${urls.size} variants`);
  for (const url of [...urls].filter((u) => /\/(320|800)\//.test(u))) {
    const answer = await app.inject({ url, headers: { host: HOSTS.uk, accept: 'image/avif,*/*' } });
    t.equal(answer.statusCode, 200, url);
    t.equal(answer.headers['content-type'], 'image/avif');
  }
});
