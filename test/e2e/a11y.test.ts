import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { DESKTOP } from './browser.ts';
import { startSuite } from './server.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

interface AxeResults {
  violations: AxeViolation[];
  passes: unknown[];
}

const { server, browser } = await startSuite(t);

const PAGES = [
  { name: 'the home page', path: '/', status: 200 },
  { name: 'the dishwasher product page', path: '/cs/kitchen/aquasense-60-dishwasher-4711', status: 200 },
  { name: 'the 404 page', path: '/cs/nope-999', status: 404 },
];

for (const { name, path, status } of PAGES) {
  t.test(`${name} has no serious or critical axe violations`, async (t) => {
    // The site's CSP (script-src 'self') would refuse the inline axe script; bypass it for the audit only.
    const context = await browser.newContext({ viewport: DESKTOP, bypassCSP: true });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const response = await page.goto(server.url('uk', path));
    t.equal(response?.status(), status, `${path} answers ${status}`);
    await page.waitForLoadState('networkidle');
    // Audit what a visitor gets after hydration, when there are islands.
    await page
      .waitForFunction(
        () =>
          Array.from(
            document.querySelectorAll('vitrine-island[data-strategy="load"], vitrine-island[data-strategy="idle"]'),
          ).every((el) => el.hasAttribute('data-hydrated')),
        undefined,
        { timeout: 10_000 },
      )
      .catch(() => undefined);

    await page.addScriptTag({ content: AXE_SOURCE });
    const { violations, passes } = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
      const result = await axe.run(document);
      return { violations: result.violations, passes: result.passes.length };
    });
    t.ok(passes > 0, `axe ran and checked rules (${passes} passed)`);
    const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const report = severe
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`)
      .join('\n');
    t.same(
      severe.map((v) => v.id),
      [],
      severe.length ? `serious/critical violations:\n${report}` : 'no serious or critical violations',
    );
  });
}
