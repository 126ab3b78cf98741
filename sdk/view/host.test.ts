import { Window } from 'happy-dom';
import t from 'tap';
import { LAYER_OWNED, type PageWindow } from '../dom.ts';
import { layerHost } from './host.ts';

/** A layer's host: recognisable, kept by page morphs, and styled inside its own shadow root. */

t.test('the host is the layer’s own, with the reset and the layer’s styles in its shadow root', async (t) => {
  const happy = new Window({ url: 'https://www.halden.co.uk/' });
  t.teardown(() => happy.happyDOM.close());
  const win = happy as unknown as PageWindow;
  const { host, root } = layerHost(win, 'collab__container', '.collab-pin { color: red; }');
  t.equal(host.className, 'collab__container');
  t.equal(host.getAttribute('data-testid'), 'collab__container');
  t.ok(host.hasAttribute(LAYER_OWNED), 'page morphs keep it');
  t.equal(host.getAttribute('data-studio-ui'), 'true');
  t.equal(host.shadowRoot, root);
  const css = root.adoptedStyleSheets.length
    ? Array.from(root.adoptedStyleSheets[0]?.cssRules ?? [], (rule) => rule.cssText).join('\n')
    : (root.querySelector('style')?.textContent ?? '');
  t.match(css, /:host\s*\{\s*all: initial/);
  t.match(css, /\.collab-pin/);
});
