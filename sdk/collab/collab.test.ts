import t from 'tap';
import { h1, start, THREAD } from './test-collab.ts';

/**
 * Collaboration in happy-dom, with the real editor library keeping threads in memory: pausing,
 * enabling, highlighted comments, malformed messages. Layout and real typing are covered in
 * test/e2e/collab.test.ts.
 */

t.test('pause hides pins and ignores clicks; enable and disable from the editor', async (t) => {
  const s = start(t, { payload: [THREAD] });
  await s.inject('collab-disable', { collab: { fromShare: true } });
  await s.advance(20);
  t.ok(s.$('.collab-pins')?.classList.contains('collab-pins--paused'));
  s.click(h1(s.win));
  t.equal(s.$('.collab-thread'), null);
  await s.inject('collab-enable', { collab: { fromShare: true, isFeedbackMode: true } });
  await s.advance(20);
  t.notOk(s.$('.collab-pins')?.classList.contains('collab-pins--paused'));
  s.click(h1(s.win));
  t.ok(s.$('.collab-thread'));
  await s.inject('collab-disable', { collab: {} });
  await s.advance(20);
  t.equal(s.config.collab.enable, false);
  t.equal(s.config.collab.isFeedbackMode, false);
  t.equal(s.$('.collab-thread'), null);
});

t.test('highlighted-comment icons open the field comment modal and are removed on request', async (t) => {
  const s = start(t);
  const opened: unknown[] = [];
  s.editor.on('open-field-comment-modal', (event) => {
    opened.push(event.data);
  });
  const field = { content_type_uid: 'page', entry_uid: 'p1', locale: 'en', fieldPath: 'title' };
  await s.inject('highlight-active-comments-by-data-cs', {
    payload: [
      { fieldMetadata: field, fieldSchema: { uid: 'title' }, discussion: { uid: 'd1' }, absolutePath: 'title' },
    ],
  });
  await s.advance(20);
  const icon = s.$('.collab-comment-icon') as HTMLButtonElement;
  t.ok(icon, 'one icon next to the title');
  t.equal(s.$$('.collab-comment-icon').length, 1);
  icon.click();
  await s.advance(40);
  t.same(opened, [
    { fieldMetadata: field, discussion: { uid: 'd1' }, fieldSchema: { uid: 'title' }, absolutePath: 'title' },
  ]);
  t.equal(s.$('.collab-thread'), null, 'the icon click starts no thread');
  await s.inject('remove-highlighted-comments', undefined);
  await s.advance(20);
  t.equal(s.$$('.collab-comment-icon').length, 0);
});

t.test('an editor message without its collab object is logged and ignored', async (t) => {
  const s = start(t);
  s.click(h1(s.win));
  await s.inject('collab-disable', {});
  await s.inject('collab-enable', { enable: false });
  await s.advance(20);
  t.equal(s.config.collab.enable, true);
  t.ok(s.$('.collab-thread'), 'the popup stays open');
});
