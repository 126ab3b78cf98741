import { renderToString } from 'react-dom/server';
import t from 'tap';
import { testAssets } from '../test/helpers.ts';
import { productPage } from './baseline-server.ts';

t.test("the bench's floor builds the product page with the server's own pipeline, without Fastify", async (t) => {
  const page = await productPage({ assets: testAssets });
  t.teardown(() => page.close());
  const html = renderToString(page.element());
  t.match(html, /<h1[^>]*>[^<]*AquaSense 60/, 'the product heading');
  t.match(html, /<sup[^>]*>/, 'its footnote citations');
  t.match(html, /srcSet="\/img\/\d+\//, "the image route's srcsets, as the server writes them");
  t.equal(renderToString(page.element()), html, 'each element renders the same page again');
});
