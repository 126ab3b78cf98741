import t from 'tap';
import { openFieldApp } from './field-app.ts';
import { installDom } from './test-dom.ts';

/** The dummy app's dialog: shows the payload, stops the page scrolling while open, restores it on close. */

t.test('the dialog shows the payload and toggles the page scrolling', async (t) => {
  installDom(t);
  const sent: [string, unknown][] = [];
  const vb = {
    on: () => undefined,
    send: async (type: string, payload?: unknown) => void sent.push([type, payload]) as never,
  };
  openFieldApp(vb, { app: { title: 'Payload viewer' } }, () => undefined);
  const dialog = document.querySelector('dialog') as HTMLDialogElement;
  t.equal(dialog.getAttribute('aria-label'), 'Payload viewer');
  t.match(dialog.querySelector('pre')?.textContent, '"title": "Payload viewer"');
  t.same(sent, [['toggle-scroll', { scroll: false }]]);
  (dialog.querySelector('button') as HTMLButtonElement).click();
  t.same(sent.at(-1), ['toggle-scroll', { scroll: true }], 'the page scrolls again');
  t.notOk(document.querySelector('dialog'), 'closed and removed');
});
