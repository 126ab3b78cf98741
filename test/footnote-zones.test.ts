import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { LAYOUT_NAMES, LAYOUTS } from '../client/layouts/layouts.ts';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * Every zone cites like the body does: the dishwasher page with a rich text carrying its own pricing
 * footnote in each zone (header, body, footer), in every layout. A zone the layout renders cites its
 * note right after the component, and the legal item links back to that citation; a zone the layout
 * does not render (no footer) lists nothing, since nothing on the page would point to it.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const TEMPLATE = 'en-GB/page_template/dishwasher.json';
const ZONES = ['header', 'body', 'footer'] as const;

const richText = (zone: string) => ({
  _content_type_uid: 'rich_text',
  uid: `rich-${zone}`,
  text: `<p>Prices in the ${zone}</p>`,
  pricingFootnotesContainer: {
    pricingFootnotes: [{ code: `ZONE-${zone.toUpperCase()}`, formattedFootnote: `The ${zone} note.` }],
  },
});

const original = JSON.parse(readFileSync(join('content', TEMPLATE), 'utf8')) as Record<string, unknown[]>;

/** The demo's en-GB content with the dishwasher template in `layout` and a noted rich text in each zone. */
function contentIn(t: Test, layout: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-zones-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync('content/en-GB', join(dir, 'en-GB'), { recursive: true });
  const template: Record<string, unknown> = { ...original, layout };
  for (const zone of ZONES)
    template[`${zone}_components`] = [...(original[`${zone}_components`] ?? []), richText(zone)];
  writeFileSync(join(dir, TEMPLATE), JSON.stringify(template));
  return dir;
}

for (const layout of LAYOUT_NAMES) {
  t.test(`${layout} layout`, async (t) => {
    const app = await demoServer({ contentDir: contentIn(t, layout), data: { demoChangeMs: 0 } });
    t.teardown(() => app.close());
    const { statusCode, body } = await app.inject({ url: DISHWASHER, headers: { host: HOSTS.uk } });
    t.equal(statusCode, 200);

    const rendered = { header: true, body: true, footer: LAYOUTS[layout].footer };
    for (const zone of ZONES) {
      const text = `Prices in the ${zone}`;
      if (!rendered[zone]) {
        t.notMatch(body, text, `${zone}: not rendered in this layout`);
        t.notMatch(body, `The ${zone} note.`, `${zone}: its note is not listed, nothing cites it`);
        continue;
      }
      const cite = new RegExp(
        `${text}</p></div></section><p class="component-cites"><sup class="cite"><a href="#([^"]+)"`,
      );
      const anchor = cite.exec(body)?.[1];
      t.ok(anchor, `${zone}: the component cites its note`);
      const item = new RegExp(`<li id="${anchor}"[^>]*>.*?</li>`).exec(body)?.[0] ?? '';
      t.match(item, `The ${zone} note.`, `${zone}: the citation lands on its note`);
      t.match(item, `href="#cite-${anchor}"`, `${zone}: the note links back to its citation`);
      t.match(body, `<a href="#${anchor}" id="cite-${anchor}"`, `${zone}: that citation has the id linked back to`);
    }
  });
}
