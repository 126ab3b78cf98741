import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createElement, type ReactElement, Suspense } from 'react';
import t from 'tap';
import { productPage } from '../../bench/baseline-server.ts';
import { testAssets } from '../../test/helpers.ts';
import { measureChunksByLength, REACT_STREAMING_BUILD } from './react-chunk-length.ts';

const require = createRequire(import.meta.url);
// The package exports `react-dom/server.bun`; its builds sit beside it in cjs/. The bundle has the
// production one; the tests render with the one that matches the React they load (as stream.ts does).
const build = (kind: string) =>
  join(dirname(require.resolve('react-dom/server.bun')), `cjs/react-dom-server.bun.${kind}.js`);
const BUNDLED = build('production');
const FILE = build(process.env.NODE_ENV === 'production' ? 'production' : 'development');
const SHIPPED = readFileSync(FILE, 'utf8');

type Render = (element: ReactElement, options: object) => { pipe(destination: NodeJS.WritableStream): unknown };

/** React's streaming build from `source`, loaded as Node would load the file. */
function streamingBuild(source: string): Render {
  const module = { exports: {} as { renderToPipeableStream: Render } };
  new Function('module', 'exports', 'require', source)(module, module.exports, createRequire(FILE));
  return module.exports.renderToPipeableStream;
}

/** The whole document `render` makes of `element`, once every boundary is done. */
function html(render: Render, element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = render(element, {
      onAllReady() {
        const out = new PassThrough();
        let text = '';
        out.on('data', (chunk: Buffer) => {
          text += chunk;
        });
        out.on('end', () => resolve(text));
        stream.pipe(out);
      },
      onShellError: reject,
    });
  });
}

t.test('the change applies to the build the server bundle carries, whose function is the one replaced', async (t) => {
  t.match(BUNDLED, REACT_STREAMING_BUILD);
  t.doesNotThrow(() => measureChunksByLength(readFileSync(BUNDLED, 'utf8'), BUNDLED));
});

t.test('chunks are measured by length, nothing else in React changes', async (t) => {
  const changed = measureChunksByLength(SHIPPED, FILE);
  t.match(changed, /function byteLengthOfChunk\(chunk\) \{\n {2}return chunk\.length;\n\}/);
  t.notMatch(changed, /Buffer\.byteLength/, 'no chunk is measured in bytes any more');
  t.equal(changed.length, SHIPPED.length - 'Buffer.byteLength(chunk, "utf8")'.length + 'chunk.length'.length);
});

t.test('the product page and a page with a large Suspense boundary come out byte for byte the same', async (t) => {
  const shipped = streamingBuild(SHIPPED);
  const changed = streamingBuild(measureChunksByLength(SHIPPED, FILE));
  // The test build's manifest: npm test runs without a production build.
  const page = await productPage({ assets: testAssets });
  t.teardown(() => page.close());
  const product = await html(changed, page.element());
  t.ok(product.length > 20_000, 'a whole product page');
  t.equal(product, await html(shipped, page.element()));
  // Outside ASCII, a character counts as one or two instead of two to four: with 3 KB of it the
  // boundary is past React's threshold for sending it out of line (500) either way.
  const boundary = createElement(
    'html',
    null,
    createElement(
      'body',
      null,
      createElement(Suspense, { fallback: 'loading' }, createElement('p', null, 'Ł'.repeat(3_000))),
    ),
  );
  t.equal(await html(changed, boundary), await html(shipped, boundary));
});

t.test('a React whose function differs fails the build, naming the file and the decision', async (t) => {
  t.throws(
    () => measureChunksByLength(SHIPPED.replace('Buffer.byteLength(chunk, "utf8")', 'chunk.byteLength'), 'x.js'),
    {
      message: /x\.js: React's byteLengthOfChunk is not the one .*0216/,
    },
  );
  t.throws(() => measureChunksByLength(`${SHIPPED}\n${SHIPPED}`, 'twice.js'), { message: /twice\.js/ });
});
