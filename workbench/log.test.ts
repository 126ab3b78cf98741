import t from 'tap';
import { createLog } from './log.ts';
import { installDom } from './test-dom.ts';

/** The message log: only the protocol's messages, both ways, at most 500 rows. */

const message = (extra: Record<string, unknown> = {}) => ({
  eventManager: 'contentstack-adv-post-message',
  channel: 'visual-builder',
  type: 'get-field-schema',
  metadata: { nature: 'REQUEST' },
  payload: { contentTypeUid: 'page' },
  ...extra,
});

t.test('a protocol message becomes a row: time, direction, channel, nature, type, payload', async (t) => {
  installDom(t);
  const log = createLog(() => new Date('2026-11-23T12:34:56.789Z'));
  log.add('in', message());
  const row = log.element.querySelector('tr');
  t.same(
    [...(row?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent),
    ['12:34:56.789', '← page', 'visual-builder', 'REQUEST', 'get-field-schema', '{"contentTypeUid":"page"}'],
  );
  t.equal(row?.dataset.direction, 'in');
});

t.test('an error answer shows its error; other messages are not logged', async (t) => {
  installDom(t);
  const log = createLog();
  log.add('out', message({ error: { code: 'X' } }));
  log.add('in', { type: 'webpack-hmr' });
  log.add('in', null);
  const rows = log.element.querySelectorAll('tr');
  t.equal(rows.length, 1);
  t.equal(rows[0]?.lastElementChild?.textContent, '{"error":{"code":"X"}}');
});

t.test('the oldest rows go beyond 500; Clear empties the log', async (t) => {
  installDom(t);
  const log = createLog();
  for (let i = 0; i < 505; i++) log.add('in', message({ type: `m${i}` }));
  const rows = log.element.querySelectorAll('tr');
  t.equal(rows.length, 500);
  t.equal(rows[0]?.dataset.type, 'm5');
  (log.element.querySelector('button') as HTMLButtonElement).click();
  t.equal(log.element.querySelectorAll('tr').length, 0);
});

t.test('what the editor posts through the stand-in is logged and reaches the frame', async (t) => {
  installDom(t);
  const log = createLog();
  const posted: unknown[] = [];
  const frame = { contentWindow: { postMessage: (m: unknown) => posted.push(m) } } as unknown as HTMLIFrameElement;
  const target = log.loggingTarget(frame);
  target.postMessage(message(), 'https://www.halden.co.uk');
  t.equal(posted.length, 1);
  t.equal(log.element.querySelector('tr')?.dataset.direction, 'out');
  t.equal(target.closed, false);
});
