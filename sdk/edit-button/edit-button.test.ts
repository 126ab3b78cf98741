import { Window } from 'happy-dom';
import t, { type Test } from 'tap';
import { applyInit } from '../config/config.ts';
import { baseConfig } from '../config/defaults.ts';
import type { Config } from '../config/types.ts';
import type { PageWindow } from '../dom.ts';
import { EDITOR_ORIGIN, framedSite } from '../test-editor.ts';
import { createChannel } from '../transport/channel.ts';
import { createPeer } from '../transport/peer.ts';
import { createEditButton } from './edit-button.ts';

/**
 * The edit tooltip in a page (happy-dom): hover, variants, placement on scroll, and what Edit does
 * outside the editor (opens the edit link) and inside it (asks the real editor to scroll).
 */

const BODY = `<main>
  <section data-cslp="page_template.dishwasher.en-GB.body_components.0">
    <h2 data-cslp="page_template.dishwasher.en-GB.body_components.0.headline"><span id="inner">AquaSense</span></h2>
    <a id="cta" href="/cs/buy-1" data-cslp="page_template.dishwasher.en-GB.body_components.0.cta.url">Buy</a>
    <p id="untagged">no tag here</p>
  </section>
</main>`;

function page(win: PageWindow, init: Parameters<typeof applyInit>[1] = {}): Config {
  win.document.body.innerHTML = BODY;
  const config = baseConfig();
  applyInit(config, { stackDetails: { apiKey: 'blt123', environment: 'preview' }, ...init });
  return config;
}

function hover(win: PageWindow, selector: string): void {
  const target = win.document.querySelector(selector);
  target?.dispatchEvent(new win.MouseEvent('mouseover', { bubbles: true, composed: true, clientX: 5, clientY: 5 }));
}

function rect(win: PageWindow, selector: string, box: { top: number; left: number; width: number; height: number }) {
  const element = win.document.querySelector(selector) as Element;
  element.getBoundingClientRect = () =>
    ({ ...box, x: box.left, y: box.top, right: box.left + box.width, bottom: box.top + box.height }) as DOMRect;
}

function standalone(t: Test) {
  const happy = new Window({ url: 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711' });
  const win = happy as unknown as PageWindow;
  t.teardown(() => happy.happyDOM.close());
  return win;
}

const tooltip = (win: PageWindow) => win.document.getElementById('cslp-tooltip');

t.test('the tooltip is 3.2.5 DOM: a button at the end of body, single Edit variant first', async (t) => {
  const win = standalone(t);
  const config = page(win);
  const button = createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN])));
  button.toggle();
  const element = tooltip(win);
  t.equal(element?.tagName, 'BUTTON');
  t.equal(element?.getAttribute('data-test-id'), 'cs-cslp-tooltip');
  t.equal(win.document.body.lastElementChild, element);
  t.ok(element?.hasAttribute('data-cslp-layer'), 'marked as the layer own, so page morphs keep it');
  t.equal(element?.querySelector('[data-test-id="cslp-singular-edit-button"]')?.textContent, 'Edit');
  button.destroy();
  t.equal(tooltip(win), null);
});

t.test('hover outlines the first tagged element on the event path and moves the tooltip there', async (t) => {
  const win = standalone(t);
  const config = page(win);
  createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]))).toggle();
  rect(win, 'h2', { top: 300, left: 100, width: 400, height: 60 });
  hover(win, '#inner');
  const h2 = win.document.querySelector('h2');
  t.ok(h2?.classList.contains('cslp-edit-mode'), 'the innermost tagged ancestor of the pointer');
  t.notOk(win.document.querySelector('section')?.classList.contains('cslp-edit-mode'));
  t.equal(tooltip(win)?.getAttribute('current-data-cslp'), 'page_template.dishwasher.en-GB.body_components.0.headline');
  t.equal(tooltip(win)?.style.top, '260px');
  t.equal(tooltip(win)?.style.left, '95px');

  hover(win, '#untagged');
  t.ok(win.document.querySelector('section')?.classList.contains('cslp-edit-mode'), 'the section around the paragraph');
  t.notOk(h2?.classList.contains('cslp-edit-mode'), 'the previous element loses the outline');
});

t.test('a link gets the Edit + Go to link variant, and back', async (t) => {
  const win = standalone(t);
  const config = page(win);
  createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]))).toggle();
  hover(win, '#cta');
  const multiple = tooltip(win)?.firstElementChild;
  t.equal(multiple?.children.length, 2);
  t.equal(multiple?.children[0]?.getAttribute('data-title'), 'Edit');
  t.equal(multiple?.children[1]?.getAttribute('data-title'), 'Go to link');
  t.equal(tooltip(win)?.getAttribute('current-href'), '/cs/buy-1');
  const assigned: string[] = [];
  win.location.assign = ((url: string) => assigned.push(url)) as typeof win.location.assign;
  (multiple?.children[1] as HTMLElement | undefined)?.click();
  t.same(assigned, ['/cs/buy-1']);
  hover(win, '#inner');
  t.equal(tooltip(win)?.firstElementChild?.getAttribute('data-test-id'), 'cslp-singular-edit-button');
  hover(win, '#cta');
  hover(win, '#cta');
  t.equal(tooltip(win)?.firstElementChild?.children.length, 2, 'a second link hover keeps the link variant');
});

t.test('the element may ask for its own position; scrolling repositions the tooltip', async (t) => {
  const win = standalone(t);
  const config = page(win, { editButton: { position: 'bottom' } });
  createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]))).toggle();
  win.document.querySelector('h2')?.setAttribute('data-cslp-button-position', 'right');
  rect(win, 'h2', { top: 300, left: 100, width: 400, height: 60 });
  hover(win, '#inner');
  t.equal(tooltip(win)?.style.top, '295px');
  t.equal(tooltip(win)?.style.left, '505px');
  rect(win, 'h2', { top: 120, left: 100, width: 400, height: 60 });
  win.dispatchEvent(new win.Event('scroll'));
  t.equal(tooltip(win)?.style.top, '115px');
});

t.test('outside the editor, Edit opens the field edit page in a new tab', async (t) => {
  const win = standalone(t);
  const config = page(win);
  createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]))).toggle();
  const opened: [string, string][] = [];
  win.open = ((url: string, target: string) => {
    opened.push([url, target]);
    return null;
  }) as typeof win.open;
  hover(win, '#inner');
  (tooltip(win)?.firstElementChild as HTMLElement | undefined)?.click();
  t.same(opened, [
    [
      'https://app.contentstack.com/#!/stack/blt123/content-type/page_template/en-GB/entry/dishwasher/edit?branch=main&preview-field=body_components.0.headline&preview-locale=en-GB&preview-environment=preview',
      '_blank',
    ],
  ]);
});

t.test('outside the editor without an api key, Edit logs the instruction and opens nothing', async (t) => {
  const win = standalone(t);
  const config = page(win, { stackDetails: { apiKey: '', environment: 'preview' } });
  createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]))).toggle();
  let opened = 0;
  win.open = (() => {
    opened++;
    return null;
  }) as typeof win.open;
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args.join(' '));
  t.teardown(() => {
    console.error = original;
  });
  hover(win, '#inner');
  (tooltip(win)?.firstElementChild as HTMLElement | undefined)?.click();
  t.equal(opened, 0);
  t.match(logged, [/you must provide the stack API key/]);
});

t.test('inside the editor, Edit asks the real editor to scroll to the field', async (t) => {
  const framed = framedSite();
  t.teardown(() => framed.close());
  const win = framed.site;
  const config = page(win);
  config.windowType = 'preview';
  const channel = createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]));
  t.teardown(() => channel.destroy());
  const editor = framed.editor('live-preview');
  const asked: unknown[] = [];
  editor.on('scroll', (event) => {
    asked.push(event.data);
  });
  createEditButton(win, config, channel).toggle();
  hover(win, '#inner');
  (tooltip(win)?.firstElementChild as HTMLElement | undefined)?.click();
  await framed.delivered();
  t.same(asked, [
    {
      field: 'body_components.0.headline',
      content_type_uid: 'page_template',
      entry_uid: 'dishwasher',
      variant: undefined,
      locale: 'en-GB',
    },
  ]);
  t.ok('variant' in (asked[0] as object), 'variant present, as 3.2.5 sends it');
});

t.test('the window type decides inside the frame: no tooltip or hover in the builder', async (t) => {
  const framed = framedSite();
  t.teardown(() => framed.close());
  const win = framed.site;
  const config = page(win);
  const button = createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN])));
  config.windowType = 'builder';
  button.toggle();
  t.equal(tooltip(win), null);
  config.windowType = 'preview';
  button.toggle();
  t.ok(tooltip(win));
  config.windowType = 'preview-share';
  hover(win, '#inner');
  t.equal(win.document.querySelectorAll('.cslp-edit-mode').length, 0, 'hover only in preview and independent windows');
});

t.test('a tooltip taken out of the page comes back on the next hover', async (t) => {
  const win = standalone(t);
  const config = page(win);
  createEditButton(win, config, createChannel('live-preview', win, createPeer(win, [EDITOR_ORIGIN]))).toggle();
  tooltip(win)?.remove();
  hover(win, '#inner');
  t.ok(tooltip(win)?.isConnected);
});
