import t from 'tap';
import { start, TITLE } from './test-builder.ts';
import { fill, TEXTS } from './text.ts';

/**
 * 4.x locks against the real editor library: the workflow stage and the variant permission are
 * asked with 4.4.1's payloads, folded into the field's disabled state, kept while hovering, asked
 * again on focus; an error or no answer within 2 s allows editing; "Request Edit Access" asks the
 * editor where the stage allows asking.
 */

const LOCKED = { stage: { name: 'Legal review' }, permissions: { entry: { update: false } } };

const hover = (s: ReturnType<typeof start>) =>
  s.el(TITLE).dispatchEvent(new s.win.MouseEvent('mousemove', { bubbles: true, clientX: 5, clientY: 5 }));

t.test('a stage lock disables the field: grey outline, reason with the stage, no inline editing', async (t) => {
  const s = start(t, { answers: { 'get-workflow-stage-details': () => LOCKED } });
  hover(s);
  await s.advance(80);
  t.ok(s.shadow.querySelector('.visual-builder__hover-outline--disabled'), 'grey outline on hover');
  t.same(s.received.find((r) => r.type === 'get-workflow-stage-details')?.data, {
    entryUid: 'page-4711',
    contentTypeUid: 'page',
    locale: 'en-GB',
  });
  s.el(TITLE).click();
  await s.advance(80);
  t.equal(s.shadow.querySelector('.tb-reason')?.textContent, fill(TEXTS.stageLocked, { stage: 'Legal review' }));
  t.notOk(s.el(TITLE).hasAttribute('contenteditable'), 'not editable');
  const buttons = [...s.shadow.querySelectorAll<HTMLButtonElement>('.tb-button[data-testid]')];
  t.ok(buttons.length > 0 && buttons.every((b) => b.disabled), 'toolbar actions disabled');
  t.notOk(s.shadow.querySelector('.tb-request'), 'no request link when the stage does not allow asking');
});

t.test('where the editor allows asking, Request Edit Access sends open-request-edit-access', async (t) => {
  const s = start(t, {
    answers: {
      'get-workflow-stage-details': () => ({ ...LOCKED, requestEditAccess: { canRequest: true, hasPending: false } }),
      'open-request-edit-access': () => undefined,
    },
  });
  s.el(TITLE).click();
  await s.advance(80);
  t.equal(s.shadow.querySelector('.tb-reason')?.textContent, fill(TEXTS.stageRequest, { stage: 'Legal review' }));
  (s.shadow.querySelector('.tb-request') as HTMLButtonElement).click();
  await s.advance(20);
  const sent = s.received.filter((r) => r.type === 'open-request-edit-access');
  t.same(sent, [
    { type: 'open-request-edit-access', data: { entryUid: 'page-4711', contentTypeUid: 'page', locale: 'en-GB' } },
  ]);
});

t.test('a pending request is said, with nothing to click; role and stage together get 4.4.1’s text', async (t) => {
  const pending = start(t, {
    answers: {
      'get-workflow-stage-details': () => ({ ...LOCKED, requestEditAccess: { canRequest: true, hasPending: true } }),
    },
  });
  pending.el(TITLE).click();
  await pending.advance(80);
  t.equal(pending.shadow.querySelector('.tb-reason')?.textContent, fill(TEXTS.stagePending, { stage: 'Legal review' }));
  t.notOk(pending.shadow.querySelector('.tb-request'));
  const both = start(t, { update: false, answers: { 'get-workflow-stage-details': () => LOCKED } });
  both.el(TITLE).click();
  await both.advance(80);
  t.equal(
    both.shadow.querySelector('.tb-reason')?.textContent,
    fill(TEXTS.stageRoleAndStage, { stage: 'Legal review' }),
  );
});

t.test('in the page’s language: the stage reason and Request Edit Access come from the page’s texts', async (t) => {
  const s = start(t, {
    answers: {
      'get-workflow-stage-details': () => ({ ...LOCKED, requestEditAccess: { canRequest: true, hasPending: false } }),
    },
  });
  s.config.messages = {
    stageRequest: 'Sie haben im Workflow-Schritt „{stage}“ keinen Bearbeitungszugriff auf diesen Eintrag.',
    requestAccess: 'Bearbeitungszugriff anfordern',
  };
  s.el(TITLE).click();
  await s.advance(80);
  t.equal(
    s.shadow.querySelector('.tb-reason')?.textContent,
    'Sie haben im Workflow-Schritt „Legal review“ keinen Bearbeitungszugriff auf diesen Eintrag.',
  );
  t.equal(s.shadow.querySelector('.tb-request')?.textContent, 'Bearbeitungszugriff anfordern');
});

t.test('a field missing from the variant is locked; an error answer allows it', async (t) => {
  const s = start(t, { answers: { 'get-resolved-variant-permissions': () => ({ update: false }) } });
  s.el(TITLE).click();
  await s.advance(80);
  t.equal(s.shadow.querySelector('.tb-reason')?.textContent, TEXTS.notInVariant);
  t.same(s.received.find((r) => r.type === 'get-resolved-variant-permissions')?.data, {
    content_type_uid: 'page',
    entry_uid: 'page-4711',
    locale: 'en-GB',
    fieldPathWithIndex: 'title',
  });
  const failed = start(t, { answers: { 'get-resolved-variant-permissions': () => ({ update: false, error: true }) } });
  failed.el(TITLE).click();
  await failed.advance(80);
  t.notOk(failed.shadow.querySelector('.tb-reason'), 'allowed');
  t.ok(failed.el(TITLE).hasAttribute('contenteditable'));
});

t.test('no answer within 2 s allows editing', async (t) => {
  const s = start(t, { answers: { 'get-workflow-stage-details': () => new Promise(() => undefined) } });
  s.el(TITLE).click();
  await s.advance(1900);
  t.notOk(s.shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'still waiting at 1.9 s');
  await s.advance(200);
  t.ok(s.shadow.querySelector('.visual-builder__overlay__wrapper.visible'), 'focused after the bound');
  t.notOk(s.shadow.querySelector('.tb-reason'));
  t.ok(s.el(TITLE).hasAttribute('contenteditable'), 'allowed');
});

t.test('kept while hovering, asked again on focus', async (t) => {
  const s = start(t, {
    answers: {
      'get-workflow-stage-details': () => LOCKED,
      'get-resolved-variant-permissions': () => ({ update: true }),
    },
  });
  const asked = (type: string) => s.received.filter((r) => r.type === type).length;
  for (let i = 0; i < 5; i++) {
    hover(s);
    await s.advance(40);
  }
  t.equal(asked('get-workflow-stage-details'), 1, 'one stage question for five hovers');
  t.equal(asked('get-resolved-variant-permissions'), 1, 'one variant question for five hovers');
  s.el(TITLE).click();
  await s.advance(80);
  t.equal(asked('get-workflow-stage-details'), 2, 'focusing asks again');
  t.equal(asked('get-resolved-variant-permissions'), 2);
});

t.test('an entry change from the editor asks again on the next hover', async (t) => {
  const s = start(t, { answers: { 'get-workflow-stage-details': () => LOCKED } });
  const asked = () => s.received.filter((r) => r.type === 'get-workflow-stage-details').length;
  hover(s);
  await s.advance(40);
  hover(s);
  await s.advance(40);
  t.equal(asked(), 1);
  s.changeEntry();
  // Out of the page and back: a new hover.
  s.win.document.documentElement.dispatchEvent(new s.win.MouseEvent('mouseleave'));
  await s.advance(10);
  hover(s);
  await s.advance(40);
  t.equal(asked(), 2, 'asked again after the change');
});
