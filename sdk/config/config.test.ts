import t from 'tap';
import { LayerError } from '../errors.ts';
import { applyInit, applyUrl, editorOrigins, exportConfig } from './config.ts';
import { baseConfig, defaultInit } from './defaults.ts';
import type { Config, InitData } from './types.ts';

/** Configuration: the defaults and how init values are chosen. */

function configured(...inits: InitData[]): Config {
  const config = baseConfig();
  for (const init of inits) applyInit(config, init);
  return config;
}

t.test('before any init the configuration has every documented default', async (t) => {
  // One assertion a line of the spec's Config list, so a failure names the default that moved.
  const config = baseConfig();
  t.hasStrict(config, { ssr: true, enable: true, debug: false, cleanCslpOnProduction: true });
  t.same(config.editButton, { enable: true, exclude: [], position: 'top', includeByQueryParameter: true });
  t.same(config.editInVisualBuilderButton, { enable: true, position: 'bottom-right' });
  t.hasStrict(config, { hash: '', mode: 1, windowType: 'independent' });
  t.hasStrict(config.stackDetails, { apiKey: '', environment: '', contentTypeUid: '', entryUid: '' });
  t.hasStrict(config.stackDetails, { locale: 'en-us', branch: 'main', masterLocale: 'en-us' });
  const url = 'https://app.contentstack.com:443';
  t.same(config.clientUrlParams, { protocol: 'https', host: 'app.contentstack.com', port: 443, url });
  t.same(config.stackSdk, { live_preview: {}, headers: { api_key: '' }, environment: '' });
  t.hasStrict(config, { runScriptsOnUpdate: false, elements: { highlightedElement: null } });
  t.type(config.onChange, 'function');
  t.hasStrict(config.collab, { enable: false, fromShare: false, pauseFeedback: false, isFeedbackMode: false });
  t.same(config.collab.inviteMetadata, { currentUser: { email: '', uid: '' }, users: [], inviteUid: '' });
  t.same(config.collab.payload, []);
});

t.test('init() without a config applies 3.2.5 defaults: no branch, SSR', async (t) => {
  const config = configured(defaultInit());
  t.equal(config.stackDetails.branch, '');
  t.equal(config.ssr, true);
  t.equal(config.mode, 1);
  t.equal(config.clientUrlParams.url, 'https://app.contentstack.com:443');
  t.equal(configured({ stackDetails: { apiKey: 'k' } }).stackDetails.branch, 'main', 'a partial init keeps main');
});

t.test('ssr: a stack SDK means client-side rendering, its own flag wins over init.ssr', async (t) => {
  t.equal(configured({}).ssr, true);
  t.equal(configured({ stackSdk: { live_preview: {} } }).ssr, false);
  t.equal(configured({ ssr: false }).ssr, false);
  t.equal(configured({ ssr: false, stackSdk: { live_preview: { ssr: true } } }).ssr, true);
});

t.test('mode: preview is 1, builder is 2, anything else throws the spec text', async (t) => {
  t.equal(configured({ mode: 'preview' }).mode, 1);
  t.equal(configured({ mode: 'builder', stackDetails: { apiKey: 'k', environment: 'e' } }).mode, 2);
  t.throws(() => configured({ mode: 'edit' as 'preview' }), {
    message: "Live Preview SDK: The mode must be either 'builder' or 'preview'",
    code: 'INVALID_MODE',
  });
});

t.test('builder mode needs an environment, then an api key', async (t) => {
  t.throws(() => configured({ mode: 'builder', stackDetails: { apiKey: 'k' } }), {
    message: 'Live preview SDK: environment is required',
  });
  t.throws(() => configured({ mode: 'builder', stackDetails: { environment: 'e' } }), {
    message: 'Live preview SDK: api key is required',
  });
  t.throws(() => configured({ mode: 'builder' }), { message: 'Live preview SDK: environment is required' });
});

t.test('stack details: init first, then the stack SDK, then the current value', async (t) => {
  const fromSdk = configured({ stackSdk: { environment: 'staging', headers: { branch: 'dev' } } });
  t.equal(fromSdk.stackDetails.environment, 'staging');
  t.equal(fromSdk.stackDetails.branch, 'dev');
  const fromInit = configured({
    stackDetails: { apiKey: 'k', environment: 'prod', branch: 'b', locale: 'de-ch' },
    stackSdk: { environment: 'staging', branch: 'other' },
  });
  t.match(fromInit.stackDetails, { apiKey: 'k', environment: 'prod', branch: 'b', locale: 'de-ch' });
  const later = configured({ stackDetails: { apiKey: 'k', environment: 'prod' } }, { ssr: false });
  t.match(later.stackDetails, { apiKey: 'k', environment: 'prod' }, 'a later init changes only what it names');
});

t.test('edit button: exclude only as an array; the stack SDK fills gaps; position defaults to top', async (t) => {
  const config = configured({
    editButton: {
      enable: false,
      exclude: ['outsideLivePreviewPortal'],
      position: 'bottom-right',
      includeByQueryParameter: false,
    },
  });
  t.same(config.editButton, {
    enable: false,
    exclude: ['outsideLivePreviewPortal'],
    position: 'bottom-right',
    includeByQueryParameter: false,
  });
  const sdk = configured({
    editButton: { exclude: 'insideLivePreviewPortal' as never },
    stackSdk: {
      live_preview: { exclude: ['insideLivePreviewPortal'], position: 'left', editButton: { enable: false } },
    },
  });
  t.same(sdk.editButton.exclude, ['insideLivePreviewPortal']);
  t.equal(sdk.editButton.position, 'left');
  t.equal(sdk.editButton.enable, false);
  t.equal(configured({ editButton: { position: 'left' } }, { editButton: {} }).editButton.position, 'left');
});

t.test('client URL: trailing slash of the host stripped, a protocol alone brings its port, url rebuilt', async (t) => {
  t.same(configured({ clientUrlParams: { host: 'eu-app.contentstack.com/' } }).clientUrlParams, {
    protocol: 'https',
    host: 'eu-app.contentstack.com',
    port: 443,
    url: 'https://eu-app.contentstack.com:443',
  });
  t.same(configured({ clientUrlParams: { protocol: 'http', host: 'localhost' } }).clientUrlParams, {
    protocol: 'http',
    host: 'localhost',
    port: 80,
    url: 'http://localhost:80',
  });
  t.equal(
    configured({ clientUrlParams: { protocol: 'http', host: 'localhost', port: 8080 } }).clientUrlParams.url,
    'http://localhost:8080',
  );
  t.equal(
    configured({ stackSdk: { live_preview: { clientUrlParams: { host: 'x.test' } } } }).clientUrlParams.host,
    'x.test',
  );
});

t.test('config keys must exist: a typo in init is named', async (t) => {
  t.throws(() => configured({ edtButton: {} } as InitData), { message: 'Invalid key: edtButton', code: 'INVALID_KEY' });
  t.throws(() => configured({ editButton: { enabled: true } } as InitData), {
    message: 'Invalid key: editButton.enabled',
  });
  t.throws(() => configured({ stackDetails: { apikey: 'k' } } as InitData), {
    message: 'Invalid key: stackDetails.apikey',
  });
  t.doesNotThrow(() =>
    configured({ stackSdk: { live_preview: {}, anything: 1, headers: { api_key: 'k', other: 1 } } }),
  );
});

t.test('editor origins: the client URL origin unless listed; a list must hold origins', async (t) => {
  t.same(editorOrigins(configured({})), ['https://app.contentstack.com']);
  t.same(editorOrigins(configured({ clientUrlParams: { protocol: 'http', host: 'localhost', port: 8080 } })), [
    'http://localhost:8080',
  ]);
  t.same(editorOrigins(configured({ editorOrigins: ['https://a.example/', 'http://127.0.0.1:9000'] })), [
    'https://a.example',
    'http://127.0.0.1:9000',
  ]);
  for (const bad of [['*'], ['https://a.example/path'], ['file:///x'], 'https://a.example', [7]])
    t.throws(() => configured({ editorOrigins: bad as string[] }), LayerError, JSON.stringify(bad));
});

t.test('the builder’s texts are taken as the page gives them; the builder reads them by key', async (t) => {
  t.same(configured({}).messages, {});
  t.same(configured({ messages: { moreApps: 'Weitere Apps', later: 'x' } }).messages, {
    moreApps: 'Weitere Apps',
    later: 'x',
  });
});

t.test('the page URL gives hash, content type and entry, also in the stack SDK', async (t) => {
  const config = baseConfig();
  applyUrl(config, new URL('https://site.test/p?live_preview=h1&content_type_uid=page&entry_uid=blt01'));
  t.equal(config.hash, 'h1');
  t.match(config.stackDetails, { contentTypeUid: 'page', entryUid: 'blt01' });
  t.match(config.stackSdk.live_preview, {
    hash: 'h1',
    live_preview: 'h1',
    content_type_uid: 'page',
    entry_uid: 'blt01',
  });
  const untouched = baseConfig();
  applyUrl(untouched, new URL('https://site.test/p'));
  t.same(untouched.hash, '');
  t.same(untouched.stackDetails.contentTypeUid, '');
});

t.test('the exported config is a copy of the shared keys only, mode numeric', async (t) => {
  const config = configured({ stackDetails: { apiKey: 'k' } });
  const exported = exportConfig(config);
  t.same(Object.keys(exported).sort(), [
    'cleanCslpOnProduction',
    'clientUrlParams',
    'editButton',
    'enable',
    'hash',
    'mode',
    'ssr',
    'stackDetails',
    'windowType',
  ]);
  exported.stackDetails.apiKey = 'changed';
  t.equal(config.stackDetails.apiKey, 'k', 'a deep copy');
  t.equal(exported.mode, 1);
});
