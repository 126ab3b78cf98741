import t from 'tap';
import { demoServer, HOSTS } from '../../test/helpers.ts';

/** The content API's answers to input it refuses: one JSON shape, a catalogue code and a sentence naming the field, never cached. */

const app = await demoServer();
t.teardown(() => app.close());

const table: [string, number, string, string][] = [
  ['/cs/api/contentstack/pages/4711', 400, 'LANGUAGE_INVALID', 'language must be a locale code like de-CH'],
  [
    '/cs/api/contentstack/pages/4711?language=../x',
    400,
    'LANGUAGE_INVALID',
    'language must be a locale code like de-CH',
  ],
  [
    '/cs/api/contentstack/pages/4711?language=en-gb',
    400,
    'LANGUAGE_INVALID',
    'language must be a locale code like de-CH',
  ],
  ['/cs/api/contentstack/pages/47x1?language=en-GB', 400, 'UUID_INVALID', 'uuid must be 1 to 10 digits'],
  ['/cs/api/contentstack/pages/12345678901?language=en-GB', 400, 'UUID_INVALID', 'uuid must be 1 to 10 digits'],
  ['/cs/api/other/pages/4711?language=en-GB', 404, 'SERVICE_UNKNOWN', 'Unknown content service'],
  ['/cs/api/contentstack/page_template/nothing-here?language=en-GB', 404, 'ENTRY_NOT_FOUND', 'Entry not found'],
  ['/cs/api/contentstack/page_template/home', 400, 'LANGUAGE_INVALID', 'language must be a locale code like de-CH'],
  ['/_applicationConfiguration?language=de-CH', 400, 'LANGUAGE_INVALID', 'language must be one of en-GB'],
  ['/_applicationConfiguration', 400, 'LANGUAGE_INVALID', 'language must be one of en-GB'],
];

for (const [url, status, code, error] of table) {
  t.test(url, async (t) => {
    const res = await app.inject({ url, headers: { host: HOSTS.uk } });
    t.equal(res.statusCode, status);
    t.same(res.json(), { error, code });
    t.equal(res.headers['cache-control'], 'no-store');
  });
}

t.test('a preview hash of the wrong shape reads published content instead of failing', async (t) => {
  const res = await app.inject({
    url: '/cs/api/contentstack/pages/4711?language=en-GB&live_preview=../x',
    headers: { host: HOSTS.uk },
  });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['cache-control'], 'public, max-age=60');
});
