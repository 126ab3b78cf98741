import t from 'tap';
import { contentstackSrcSet, IMAGE_WIDTHS, routeSrcSet, snapWidth } from './images.ts';

t.test('a width snaps to the next fixed one; past the largest there is none', async (t) => {
  t.equal(snapWidth(1), 320);
  t.equal(snapWidth(320), 320);
  t.equal(snapWidth(321), 480);
  t.equal(snapWidth(1999), 2000);
  t.equal(snapWidth(2001), undefined);
});

t.test('the route srcset stops at the source: its last candidate is the source at its own width', async (t) => {
  t.equal(
    routeSrcSet('0123456789ab', 'oven.jpg', 700),
    '/img/320/0123456789ab/oven.jpg 320w, /img/480/0123456789ab/oven.jpg 480w, ' +
      '/img/640/0123456789ab/oven.jpg 640w, /img/800/0123456789ab/oven.jpg 700w',
  );
  t.equal(routeSrcSet('0123456789ab', 'oven.jpg', 4000).split(', ').length, IMAGE_WIDTHS.length);
});

t.test('Contentstack assets get the Image Delivery API parameters; other URLs and SVG none', async (t) => {
  const asset = 'https://eu-images.contentstack.com/v3/assets/blt1/blt2/oven.jpg?environment=production&width=5';
  t.equal(
    contentstackSrcSet(asset, 500),
    'https://eu-images.contentstack.com/v3/assets/blt1/blt2/oven.jpg?environment=production&width=320&auto=webp 320w, ' +
      'https://eu-images.contentstack.com/v3/assets/blt1/blt2/oven.jpg?environment=production&width=480&auto=webp 480w, ' +
      'https://eu-images.contentstack.com/v3/assets/blt1/blt2/oven.jpg?environment=production&width=640&auto=webp 640w',
  );
  t.match(
    contentstackSrcSet('https://images.contentstack.io/v3/assets/a/b/c.png', 320),
    /c\.png\?width=320&auto=webp 320w$/,
  );
  for (const other of [
    'https://images.contentstack.io/v3/assets/a/b/logo.svg',
    'http://images.contentstack.io/v3/assets/a/b/c.png',
    'https://images.contentstack.io.evil.example/c.png',
    'https://evil.example/images.contentstack.io/c.png',
    '/images/oven.jpg',
    'https://images.contentstack.io/a b.png',
  ])
    t.equal(contentstackSrcSet(other, 800), undefined, other);
});
