import t from 'tap';
import { baseConfig } from '../config/defaults.ts';
import type { Config } from '../config/types.ts';
import { editButtonAllowed, isTimeline } from './visibility.ts';

/** Edit button visibility: config, query parameter, frame, window type. */

const page = (query = '') => new URL(`https://www.halden.co.uk/cs/x-1${query}`);
function config(editButton: Partial<Config['editButton']> = {}, windowType: Config['windowType'] = 'independent') {
  const c = baseConfig();
  c.editButton = { ...c.editButton, ...editButton };
  c.windowType = windowType;
  return c;
}

t.test('shown by default, inside and outside the editor frame', async (t) => {
  t.ok(editButtonAllowed(config(), page(), false));
  t.ok(editButtonAllowed(config({}, 'preview'), page(), true));
});

t.test('disabled in the config: hidden; enable missing altogether also logs the spec text', async (t) => {
  t.notOk(editButtonAllowed(config({ enable: false }), page(), false));
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args.join(' '));
  t.teardown(() => {
    console.error = original;
  });
  t.notOk(editButtonAllowed(config({ enable: undefined }), page(), true));
  t.match(logged, [/enable key is required inside editButton object/]);
});

t.test('cslp-buttons: false hides, any other value shows, ignored when includeByQueryParameter is false', async (t) => {
  t.notOk(editButtonAllowed(config(), page('?cslp-buttons=false'), false));
  t.ok(editButtonAllowed(config({ exclude: ['outsideLivePreviewPortal'] }), page('?cslp-buttons=true'), false));
  t.ok(editButtonAllowed(config({}, 'builder'), page('?cslp-buttons=yes'), true), 'wins over the window type');
  t.ok(editButtonAllowed(config({ includeByQueryParameter: false }), page('?cslp-buttons=false'), false));
  t.notOk(
    editButtonAllowed(
      config({ includeByQueryParameter: false, exclude: ['outsideLivePreviewPortal'] }),
      page('?cslp-buttons=true'),
      false,
    ),
  );
  t.notOk(
    editButtonAllowed(config({ enable: false }), page('?cslp-buttons=true'), false),
    'never over a disabled config',
  );
});

t.test('exclude rules apply on their side of the frame only', async (t) => {
  t.notOk(editButtonAllowed(config({ exclude: ['outsideLivePreviewPortal'] }), page(), false));
  t.ok(editButtonAllowed(config({ exclude: ['outsideLivePreviewPortal'] }), page(), true));
  t.notOk(editButtonAllowed(config({ exclude: ['insideLivePreviewPortal'] }), page(), true));
  t.ok(editButtonAllowed(config({ exclude: ['insideLivePreviewPortal'] }), page(), false));
});

t.test('inside the builder window the builder has its own tools', async (t) => {
  t.notOk(editButtonAllowed(config({}, 'builder'), page(), true));
});

t.test('a non-empty preview_timestamp is the timeline view', async (t) => {
  t.ok(isTimeline(page('?preview_timestamp=2024-01-01')));
  t.notOk(isTimeline(page('?preview_timestamp=')));
  t.notOk(isTimeline(page()));
});
