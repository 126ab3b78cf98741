import { Window } from 'happy-dom';
import t from 'tap';
import { baseConfig } from '../config/defaults.ts';
import type { PageWindow } from '../dom.ts';
import { showStartEditing, visualBuilderLink } from './start-editing.ts';

function page(url = 'https://www.halden.co.uk/cs/kitchen?builder=true') {
  const win = new Window({ url }) as unknown as PageWindow;
  win.document.body.innerHTML = '<h1 data-cslp="page.p1.en-GB.title">T</h1>';
  const config = baseConfig();
  Object.assign(config.stackDetails, { apiKey: 'blt1', environment: 'preview', branch: 'main' });
  config.clientUrlParams.url = 'https://app.contentstack.com:443';
  return { win, config };
}

t.test('the link opens 4.3+ visual-editor route for this page, locale of the first tag', async (t) => {
  const { win, config } = page();
  t.equal(
    visualBuilderLink(win, config),
    'https://app.contentstack.com/#!/stack/blt1/visual-editor?branch=main&environment=preview&target-url=https%3A%2F%2Fwww.halden.co.uk%2Fcs%2Fkitchen%3Fbuilder%3Dtrue&locale=en-GB',
  );
});

t.test('Start Editing sits 30 px from its corner; an unknown corner falls back to bottom-right', async (t) => {
  const { win, config } = page();
  config.editInVisualBuilderButton.position = 'top-left';
  const remove = showStartEditing(win, config);
  const link = win.document.querySelector('[data-testid="vcms-start-editing-btn"]') as HTMLAnchorElement;
  t.equal(link.textContent, 'Start Editing');
  t.same([link.style.top, link.style.left], ['30px', '30px']);
  remove();
  config.editInVisualBuilderButton.position = 'middle';
  showStartEditing(win, config);
  const fallback = win.document.querySelector('[data-testid="vcms-start-editing-btn"]') as HTMLAnchorElement;
  t.same([fallback.style.bottom, fallback.style.right], ['30px', '30px']);
});

t.test('the address is refreshed on hover, focus and click; disabled shows nothing', async (t) => {
  const { win, config } = page();
  showStartEditing(win, config);
  const link = win.document.querySelector('a') as HTMLAnchorElement;
  win.history.pushState(null, '', '/cs/laundry?builder=true');
  link.dispatchEvent(new win.Event('mouseenter'));
  t.match(link.href, /target-url=https%3A%2F%2Fwww\.halden\.co\.uk%2Fcs%2Flaundry/);
  const other = page();
  other.config.editInVisualBuilderButton.enable = false;
  showStartEditing(other.win, other.config);
  t.notOk(other.win.document.querySelector('a'));
});
