import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t, { type Test } from 'tap';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * One bad component costs one component: the dishwasher page of the demo content with one of its
 * components broken in each way the renderer can meet, table-driven. The page answers 200, the
 * broken component is gone, the rest is there, the footnotes only it carried are gone with it and
 * the numbering has no gap, and one warning names the file, the component's uid and the JSON path.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const TEMPLATE = 'en-GB/page_template/dishwasher.json';

type Template = { body_components: Record<string, unknown>[] };
type Break = (template: Template) => void;

const byUid = (template: Template, uid: string) => {
  const found = template.body_components.find((c) => c.uid === uid);
  if (!found) throw new Error(`no component ${uid} in the dishwasher template`);
  return found;
};

const CASES: {
  name: string;
  breaks: Break;
  uid: string;
  path: RegExp;
  /** Markup of the broken component that must be gone. */
  gone: RegExp;
  /** Footnote anchors that only the broken component carried. */
  notesGone: string[];
}[] = [
  {
    name: 'a field of the wrong type (schema)',
    breaks: (tpl) => {
      byUid(tpl, 'faq-dishwasher').title = 42;
    },
    uid: 'faq-dishwasher',
    path: /^\$\.body_components\[\d\]\.title$/,
    gone: /class="faq"/,
    notesGone: [],
  },
  {
    name: 'a component that throws while rendering',
    breaks: (tpl) => {
      const features = byUid(tpl, 'features-dishwasher').productFeatures as Record<string, unknown>[];
      (features[0] as Record<string, unknown>).titleText = { text: 'an object where text belongs' };
    },
    uid: 'features-dishwasher',
    path: /^\$\.body_components\[1\]$/,
    gone: /class="features"/,
    notesGone: ['fn-dishwasher-legal-measurement', 'fn-dishwasher-patent', 'fn-cashback'],
  },
];

function contentWith(t: Test, breaks: Break): string {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-isolation-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('content/en-GB', join(dir, 'en-GB'), { recursive: true });
  const file = join(dir, TEMPLATE);
  const template = JSON.parse(readFileSync(file, 'utf8')) as Template;
  breaks(template);
  writeFileSync(file, JSON.stringify(template));
  return dir;
}

async function serve(t: Test, contentDir: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await demoServer({ contentDir, data: { demoChangeMs: 0 }, logger: { level: 'warn', stream } });
  t.teardown(() => app.close());
  const res = await app.inject({ url: DISHWASHER, headers: { host: HOSTS.uk } });
  return { res, lines };
}

const legalIndexes = (html: string) =>
  [...html.matchAll(/<span class="footnote-index" aria-hidden="true">(\d+)<\/span>/g)].map((m) => Number(m[1]));

t.test('the intact page carries the parts the cases break', async (t) => {
  const { res } = await serve(
    t,
    contentWith(t, () => {}),
  );
  t.equal(res.statusCode, 200);
  for (const { gone, notesGone } of CASES) {
    t.match(res.body, gone);
    for (const anchor of notesGone) t.match(res.body, `id="${anchor}"`);
  }
});

for (const c of CASES) {
  t.test(c.name, async (t) => {
    const { res, lines } = await serve(t, contentWith(t, c.breaks));
    t.equal(res.statusCode, 200, 'the page still answers 200');
    t.notMatch(res.body, c.gone, 'the broken component renders nothing');
    t.match(res.body, 'class="hero', 'the components around it render');
    t.match(res.body, 'class="teasers"');
    t.match(res.body, 'class="breadcrumbs');
    for (const anchor of c.notesGone) t.notMatch(res.body, `id="${anchor}"`, `${anchor} left with its component`);
    const indexes = legalIndexes(res.body);
    t.same(
      indexes,
      indexes.map((_, i) => i + 1),
      'footnote numbering has no gap',
    );
    const warnings = lines.filter((l) => l.uid === c.uid);
    t.equal(warnings.length, 1, 'one warning');
    t.match(warnings[0], { where: TEMPLATE, uid: c.uid, path: c.path, level: 40 });
  });
}
