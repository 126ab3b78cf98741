import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { languageOf } from '../../common/locales.ts';
import sitesConfig from '../../config/sites.json' with { type: 'json' };
import { startSuite } from './server.ts';

/**
 * Touch targets (WCAG 2.2 AA 2.5.8, axe `target-size`) on a phone: every storefront home, in every
 * language, audited by axe-core in Chromium at 390 × 844. Footnote citations sit next to the
 * teaser's product link; they get a 24 × 24 px hit area that leaves the line as it was.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

interface RuleResult {
  violations: { target: unknown[]; summary: string }[];
  checked: number;
}

const { server, browser } = await startSuite(t);

const homes = sitesConfig.sites.flatMap((site) => {
  const alias = site.aliases[0]?.replace(/\.localhost$/, '') ?? '';
  return site.locales.length > 1
    ? site.locales.map((locale) => ({ name: `${alias} ${locale}`, alias, path: `/${languageOf(locale)}` }))
    : [{ name: alias, alias, path: '/' }];
});

t.test('no touch target is too small on any storefront home', async (t) => {
  // The site's CSP (script-src 'self') would refuse the inline axe script; bypass it for the audit only.
  const context = await browser.newContext({ ...PHONE, bypassCSP: true });
  t.teardown(() => context.close());
  const page = await context.newPage();
  let citations = 0;
  for (const home of homes) {
    const response = await page.goto(server.url(home.alias, home.path));
    t.equal(response?.status(), 200, `${home.name}: the home answers 200`);
    await page.addScriptTag({ content: AXE_SOURCE });
    const result = await page.evaluate(async (): Promise<RuleResult> => {
      type Node = { target: unknown[]; failureSummary?: string };
      type Result = { nodes: Node[] };
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{ violations: Result[]; passes: Result[]; incomplete: Result[] }>;
          };
        }
      ).axe;
      const found = await axe.run(document, { runOnly: ['target-size'] });
      const nodes = (results: Result[]) => results.flatMap((r) => r.nodes);
      return {
        violations: nodes(found.violations).map((n) => ({ target: n.target, summary: n.failureSummary ?? '' })),
        checked: nodes(found.violations).length + nodes(found.passes).length + nodes(found.incomplete).length,
      };
    });
    const here = await page.locator('sup.cite a').count();
    const sizes = await page.$$eval('sup.cite a', (links) =>
      links.map((a) => {
        const { width, height } = a.getBoundingClientRect();
        return Math.min(width, height);
      }),
    );
    t.ok(
      sizes.every((size) => size >= 24),
      `${home.name}: every citation is at least 24 x 24 px (smallest side ${Math.min(...sizes)})`,
    );
    // How they look: where the citations' and product links' text is drawn, and the page's height,
    // are the same with the hit areas taken away.
    const drawn = () =>
      page.$$eval('sup.cite a, .teaser-link', (links) => [
        document.documentElement.scrollHeight,
        ...links.flatMap((a) => {
          const range = document.createRange();
          range.selectNodeContents(a);
          const r = range.getBoundingClientRect();
          return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
        }),
      ]);
    const withHitAreas = await drawn();
    const plain = await page.addStyleTag({
      content: '.cite a { padding: 0 0.2em !important; margin: 0 !important } .teaser-link { padding: 0 !important }',
    });
    t.same(withHitAreas, await drawn(), `${home.name}: the hit areas move no text`);
    await plain.evaluate((style) => (style as Element).remove());
    citations += here;
    t.ok(result.checked >= here, `${home.name}: axe checked the page's targets (${result.checked})`);
    t.same(
      result.violations,
      [],
      `${home.name}: no target-size violation${result.violations.map((v) => `\n${JSON.stringify(v.target)} ${v.summary}`).join('')}`,
    );
  }
  t.ok(citations > 0, `the homes carry citations (${citations})`);
});
