import t from 'tap';
import { readApps } from './protocol.ts';
import { start, TITLE } from './test-builder.ts';

/**
 * Field-location apps (4.x) against the real editor library: the focused field asks
 * `field-location-data` with its edit stack, the first app becomes a toolbar button and the others
 * a searchable list behind "More apps", and choosing one sends `field-location-selected-app` with
 * 4.4.1's keys.
 */

const app = (uid: string, title: string, icon?: string) => ({
  uid,
  title,
  ...(icon ? { icon } : {}),
  app_installation_uid: `inst-${uid}`,
  app_uid: `app-${uid}`,
  contentTypeUid: 'page',
  entryUid: 'page-4711',
  fieldDataType: 'text',
  fieldDisplayName: 'Title',
  fieldPath: 'title',
  locale: 'en-GB',
  manifest: { uid: `app-${uid}`, name: title, description: '', icon: '', visibility: 'public' },
});
const APPS = [
  app('a1', 'Translator', 'https://apps.example/icon.svg'),
  app('a2', 'Spell check'),
  app('a3', 'SEO helper'),
];

t.test('the apps become toolbar buttons; choosing one sends what 4.4.1 sends', async (t) => {
  const s = start(t, {
    answers: { 'field-location-data': () => ({ apps: APPS }), 'field-location-selected-app': () => undefined },
  });
  s.el(TITLE).click();
  await s.advance(80);
  const asked = s.received.find((r) => r.type === 'field-location-data')?.data as { domEditStack: object[] };
  t.same(Object.keys(asked), ['domEditStack'], '4.4.1’s key');
  t.match(asked.domEditStack, [{ cslpValue: TITLE, entry_uid: 'page-4711' }]);
  const group = s.shadow.querySelector('[data-testid="visual-builder__field-location-apps"]') as HTMLElement;
  t.equal(group.getAttribute('role'), 'group');
  t.equal(group.getAttribute('aria-label'), 'Field apps');
  const first = group.querySelector('[data-testid="field-location-icon"]') as HTMLButtonElement;
  t.equal(first.getAttribute('aria-label'), 'Translator', 'named by the app title');
  t.equal(first.querySelector('img')?.getAttribute('src'), 'https://apps.example/icon.svg');
  const more = group.querySelector('[data-testid="field-location-more-button"]') as HTMLButtonElement;
  t.equal(more.getAttribute('aria-expanded'), 'false');
  const list = group.querySelector('.tb-app-list') as HTMLElement;
  t.ok(list.hidden, 'the other apps wait behind More apps');
  more.click();
  t.notOk(list.hidden);
  t.equal(more.getAttribute('aria-expanded'), 'true');
  const items = [...list.querySelectorAll<HTMLButtonElement>('.tb-app-item')];
  t.same(
    items.map((item) => item.textContent),
    ['SSpell check', 'SSEO helper'],
  );
  const search = list.querySelector('input') as HTMLInputElement;
  t.equal(search.getAttribute('aria-label'), 'Search for apps');
  search.value = 'seo!';
  search.dispatchEvent(new s.win.Event('input', { bubbles: true }));
  t.same(
    items.map((item) => item.hidden),
    [true, false],
    'filtered as 4.4.1 does',
  );
  t.ok((list.querySelector('.tb-no-apps') as HTMLElement).hidden);
  search.value = 'nothing';
  search.dispatchEvent(new s.win.Event('input', { bubbles: true }));
  t.notOk((list.querySelector('.tb-no-apps') as HTMLElement).hidden, 'no matching results said');
  (items[1] as HTMLButtonElement).click();
  await s.advance(20);
  t.ok(list.hidden, 'the list closes on a choice');
  first.click();
  await s.advance(20);
  const chosen = s.received.filter((r) => r.type === 'field-location-selected-app').map((r) => r.data) as Record<
    string,
    unknown
  >[];
  t.equal(chosen.length, 2);
  t.same(Object.keys(chosen[0] as object).sort(), ['DomEditStack', 'app', 'position'], '4.4.1’s keys');
  t.same(chosen[0]?.app, APPS[2], 'the whole app record goes back');
  t.same(chosen[1]?.app, APPS[0]);
  t.match(chosen[0]?.DomEditStack, [{ cslpValue: TITLE }]);
  t.same(Object.keys(chosen[0]?.position as object).sort(), [
    'bottom',
    'height',
    'left',
    'right',
    'top',
    'width',
    'x',
    'y',
  ]);
});

t.test('one app is a button alone; none, or an editor that refuses, shows no apps', async (t) => {
  const one = start(t, { answers: { 'field-location-data': () => ({ apps: [APPS[1]] }) } });
  one.el(TITLE).click();
  await one.advance(80);
  const button = one.shadow.querySelector('[data-testid="field-location-icon"]') as HTMLButtonElement;
  t.equal(button.textContent, 'S', 'no icon: the title’s first letter');
  t.notOk(one.shadow.querySelector('[data-testid="field-location-more-button"]'));
  const refused = start(t);
  refused.el(TITLE).click();
  await refused.advance(80);
  t.ok(refused.shadow.querySelector('.visual-builder__focused-toolbar:not([hidden])'), 'focused');
  t.notOk(refused.shadow.querySelector('[data-testid="visual-builder__field-location-apps"]'));
});

t.test('apps are read defensively; an icon that is no https or data image is not loaded', async (t) => {
  t.same(readApps({ apps: [{ uid: 'x' }, { title: 'y' }, { uid: 'z', title: 'Z', icon: 3 }, 'no'] }), []);
  t.same(readApps({ apps: 'no' }), []);
  t.same(readApps(undefined), []);
  const s = start(t, {
    answers: { 'field-location-data': () => ({ apps: [app('j', 'Evil', 'javascript:alert(1)')] }) },
  });
  s.el(TITLE).click();
  await s.advance(80);
  const button = s.shadow.querySelector('[data-testid="field-location-icon"]') as HTMLButtonElement;
  t.notOk(button.querySelector('img'));
});
