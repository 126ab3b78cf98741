import t from 'tap';
import { PUBLIC_CACHE } from '../server/routes/page-reply.ts';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * Speculation-Rules follows the visitor's hints on every page answer, rendered or from the HTML
 * cache, and the answer says so (Accept-CH, Vary) so a CDN keeps the two kinds apart.
 */
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';

const ROWS: [string, Record<string, string>, boolean][] = [
  ['no hints', {}, true],
  ['Save-Data: on', { 'save-data': 'on' }, false],
  ['ECT: slow-2g', { ect: 'slow-2g' }, false],
  ['ECT: 2g', { ect: '2g' }, false],
  ['ECT: 3g', { ect: '3g' }, true],
  ['ECT: 4g', { ect: '4g' }, true],
];

for (const cache of [true, false]) {
  t.test(`HTML cache ${cache ? 'on' : 'off'}: each request gets its own answer, in any order`, async (t) => {
    const app = await demoServer({ htmlCache: cache });
    t.teardown(() => app.close());
    // Twice through, forwards then backwards: a cached answer for one kind never reaches the other.
    for (const rows of [ROWS, [...ROWS].reverse()]) {
      for (const [name, hints, sent] of rows) {
        const res = await app.inject({ url: PRODUCT, headers: { host: HOSTS.uk, 'accept-encoding': 'br', ...hints } });
        t.equal(res.statusCode, 200, name);
        t.equal(
          res.headers['speculation-rules'] !== undefined,
          sent,
          `${name}: speculation rules ${sent ? 'sent' : 'withheld'}`,
        );
        t.equal(res.headers['accept-ch'], 'ECT, Save-Data', `${name}: asks for the hints`);
        const vary = String(res.headers.vary).split(/,\s*/);
        t.ok(vary.includes('ECT') && vary.includes('Save-Data'), `${name}: varies on the hints (${vary.join(', ')})`);
        // The cache sends its precompressed copies, so its answers vary on the encoding as well.
        if (cache) t.ok(vary.includes('Accept-Encoding'), `${name}: and on the encoding`);
        t.equal(res.headers['cache-control'], PUBLIC_CACHE, `${name}: a CDN may keep it`);
      }
    }
  });
}
