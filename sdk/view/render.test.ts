import { Window } from 'happy-dom';
import t, { type Test } from 'tap';
import '../test-globals.ts';
import { html } from './html.ts';
import { surface } from './render.ts';

/** Surfaces in happy-dom: renders change nodes in place, typed text stays, handlers follow the render. */

function setup(t: Test) {
  const win = new Window({ url: 'https://www.halden.co.uk/' });
  const container = win.document.createElement('div') as unknown as HTMLElement;
  win.document.body.append(container as never);
  const closed = new AbortController();
  t.teardown(async () => {
    closed.abort();
    await win.happyDOM.close();
  });
  return { win, container, drawn: surface(container, closed.signal), closed };
}

t.test('a render changes what changed and keeps the nodes that stay', async (t) => {
  const { container, drawn } = setup(t);
  drawn.render(() => html`<h2>1 Comment</h2><ul><li id="c-1">first</li></ul>`);
  const heading = container.querySelector('h2');
  const first = container.querySelector('#c-1');
  drawn.render(() => html`<h2>2 Comments</h2><ul><li id="c-2">second</li><li id="c-1">first</li></ul>`);
  t.equal(container.querySelector('h2'), heading, 'the same heading');
  t.equal(heading?.textContent, '2 Comments');
  t.equal(container.querySelector('#c-1'), first, 'a keyed item is moved, not made again');
  t.same(
    Array.from(container.querySelectorAll('li'), (li) => li.textContent),
    ['second', 'first'],
  );
});

t.test('what a person typed stays through a render; code sets it on the element', async (t) => {
  const { container, drawn } = setup(t);
  drawn.render(() => html`<textarea rows="1"></textarea>`);
  const area = container.querySelector('textarea') as HTMLTextAreaElement;
  area.value = 'Half a sentence';
  drawn.render(() => html`<textarea rows="3"></textarea>`);
  t.equal(container.querySelector('textarea'), area);
  t.equal(area.value, 'Half a sentence');
  t.equal(area.getAttribute('rows'), '3', 'attributes follow the template');
});

t.test(
  "handlers belong to the render that registered them; disabled buttons and other events don't run them",
  async (t) => {
    const { win, container, drawn } = setup(t);
    const runs: string[] = [];
    drawn.render(() => html`<button ${drawn.on('click', () => runs.push('first'))}>a</button>`);
    drawn.render(
      () =>
        html`<button ${drawn.on('click', () => runs.push('second'))}>a</button><button disabled ${drawn.on('click', () => runs.push('disabled'))}>b</button><span ${drawn.on('mousedown', (event) => runs.push(event.type))}>c</span>`,
    );
    const [a, b] = Array.from(container.querySelectorAll('button'));
    a?.click();
    b?.click();
    const span = container.querySelector('span') as HTMLElement;
    span.dispatchEvent(new win.MouseEvent('click', { bubbles: true }) as unknown as Event);
    span.dispatchEvent(new win.MouseEvent('mousedown', { bubbles: true }) as unknown as Event);
    t.same(runs, ['second', 'mousedown']);
  },
);

t.test('the click of a child reaches its element; nothing runs once the surface is closed', async (t) => {
  const { container, drawn, closed } = setup(t);
  let runs = 0;
  drawn.render(() => html`<button ${drawn.on('click', () => runs++)}><span>inner</span></button>`);
  (container.querySelector('span') as HTMLElement).click();
  closed.abort();
  (container.querySelector('span') as HTMLElement).click();
  t.equal(runs, 1);
});
