import t from 'tap';
import { applyInit } from '../config/config.ts';
import { baseConfig } from '../config/defaults.ts';
import type { InitData } from '../config/types.ts';
import { parseCslp } from '../cslp/parse.ts';
import { editLink } from './edit-link.ts';

/** The edit link in the form the editor's router reads. */

function link(init: InitData, tag: string): string {
  const config = baseConfig();
  applyInit(config, init);
  const parsed = parseCslp(tag);
  if (!parsed) throw new Error(`not a tag: ${tag}`);
  return editLink(config, parsed);
}

const stack = { apiKey: 'blt123', environment: 'preview' };

t.test('the observed 3.2.5 link: default port dropped, query inside the fragment, branch main', async (t) => {
  t.equal(
    link({ stackDetails: stack, clientUrlParams: { host: 'app.example.test' } }, 'page.blt0fixture1.en-us.title'),
    'https://app.example.test/#!/stack/blt123/content-type/page/en-us/entry/blt0fixture1/edit?branch=main&preview-field=title&preview-locale=en-us&preview-environment=preview',
  );
});

t.test('branch only when one is set; another port is kept', async (t) => {
  t.equal(
    link(
      { stackDetails: { ...stack, branch: '' }, clientUrlParams: { protocol: 'http', host: 'localhost', port: 8080 } },
      'page_template.dishwasher.en-GB.body_components.0.headline',
    ),
    'http://localhost:8080/#!/stack/blt123/content-type/page_template/en-GB/entry/dishwasher/edit?preview-field=body_components.0.headline&preview-locale=en-GB&preview-environment=preview',
  );
  t.match(link({ stackDetails: { ...stack, branch: 'develop' } }, 'page.e.en-us.t'), '?branch=develop&');
});

t.test('a v2 tag with a variant gets the variant tail; an instance tag points at its field', async (t) => {
  t.match(link({ stackDetails: stack }, 'v2:page.blt01_cs9a8b7c.de-ch.summary'), '/entry/blt01/variant/cs9a8b7c/edit?');
  t.match(link({ stackDetails: stack }, 'page.blt01.en-us.features.1'), 'preview-field=features&');
});

t.test('without api key or environment there is no link, only the instructional error', async (t) => {
  t.throws(() => link({ stackDetails: { environment: 'preview' } }, 'page.e.en-us.t'), {
    code: 'EDIT_LINK_API_KEY',
    message: /you must provide the stack API key/,
  });
  t.throws(() => link({ stackDetails: { apiKey: 'k' } }, 'page.e.en-us.t'), {
    code: 'EDIT_LINK_ENVIRONMENT',
    message: /you must provide the preview environment/,
  });
});
