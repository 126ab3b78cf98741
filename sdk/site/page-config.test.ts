import { Window } from 'happy-dom';
import t from 'tap';
import { serializeInlineJson } from '../../common/inline-json.ts';
import { PAGE_CONFIG_ID } from '../../common/preview-page-config.ts';
import { readPageConfig } from './page-config.ts';

/** The configuration block the server writes and the standalone script reads. */

const happy = new Window({ url: 'https://www.halden.co.uk/' });
t.teardown(() => happy.happyDOM.close());
const doc = happy.document as unknown as Document;

const block = (text: string) => `<script type="application/json" id="${PAGE_CONFIG_ID}">${text}</script>`;

t.test('the JSON block as the server writes it, escapes included, reads back', async (t) => {
  const init = { ssr: false, stackDetails: { apiKey: '</script><b>', environment: 'preview' } };
  doc.head.innerHTML = block(serializeInlineJson({ init }));
  t.same(readPageConfig(doc), { init });
});

t.test('a missing, broken or misshapen block is no configuration', async (t) => {
  for (const html of ['', block(''), block('{"init":'), block('null'), block('{"init":"x"}'), block('[]')]) {
    doc.head.innerHTML = html;
    t.equal(readPageConfig(doc), null, html);
  }
});
