import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { openPage } from './browser.ts';
import { startSuite } from './server.ts';

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';

const { server, browser } = await startSuite(t);

async function dishwasher(t: Test): Promise<Page> {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const response = await page.goto(server.url('uk', DISHWASHER));
  t.equal(response?.status(), 200, 'the dishwasher page answers 200');
  return page;
}

t.test('every citation link lands on its item in the legal section', async (t) => {
  const page = await dishwasher(t);
  const citations = page.locator('sup.cite a');
  const count = await citations.count();
  t.ok(count > 0, `the page has citations (${count})`);

  for (let i = 0; i < count; i++) {
    const link = citations.nth(i);
    const href = (await link.getAttribute('href')) ?? '';
    t.match(href, /^#[^#\s]+$/, `citation ${i + 1} links to a fragment (${href})`);
    // Move the target elsewhere first, so each click has to move it back.
    await page.evaluate(() => {
      location.hash = 'main';
    });
    t.equal(await page.evaluate(() => document.querySelector(':target')?.id ?? null), 'main', 'target reset');

    await link.click();
    await page.waitForFunction((h) => location.hash === h, href, { timeout: 5_000 }).catch(() => undefined);
    const landed = await page.evaluate(() => {
      const target = document.querySelector(':target');
      return {
        hash: location.hash,
        targetId: target?.id ?? null,
        targetTag: target?.tagName.toLowerCase() ?? null,
        inLegal: target?.closest('section.legal') != null,
      };
    });
    const id = decodeURIComponent(href.slice(1));
    t.equal(landed.hash, href, `citation ${i + 1}: the URL hash is its href`);
    t.equal(await page.locator(`section.legal [id="${id}"]`).count(), 1, `#${id} exists inside section.legal`);
    t.same(
      { targetId: landed.targetId, targetTag: landed.targetTag, inLegal: landed.inLegal },
      { targetId: id, targetTag: 'li', inLegal: true },
      `#${id} is the :target, a legal list item`,
    );
  }
});

t.test('every back link in the legal section points at an existing citation', async (t) => {
  const page = await dishwasher(t);
  const items = await page.evaluate(() =>
    Array.from(document.querySelectorAll('section.legal li[id]')).map((li) => ({
      id: li.id,
      backs: Array.from(li.querySelectorAll('a.footnote-back')).map((a) => a.getAttribute('href') ?? ''),
    })),
  );
  t.ok(items.length > 0, `the legal section lists footnotes (${items.length})`);
  const withBack = items.filter((item) => item.backs.length > 0);
  t.ok(withBack.length > 0, 'some legal items have a back link');

  for (const item of withBack) {
    for (const back of item.backs) {
      t.match(back, /^#[^#\s]+$/, `#${item.id}: the back link is a fragment (${back})`);
      const citation = await page.evaluate(
        (id) => {
          const element = document.getElementById(id);
          return element ? { isCitation: element.matches('sup.cite a'), href: element.getAttribute('href') } : null;
        },
        decodeURIComponent(back.slice(1)),
      );
      t.ok(citation, `#${item.id}: the back link's target ${back} exists`);
      t.ok(citation?.isCitation, `#${item.id}: ${back} is a citation (sup.cite a)`);
      t.equal(citation?.href, `#${item.id}`, `#${item.id}: that citation links back to this item`);
    }
  }
});
