import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import t from 'tap';
import { languageOf } from '../common/locales.ts';
import { isMultilingual } from '../common/site.ts';
import { loadSitesConfig } from '../server/config/sites.ts';
import { ContentError } from '../server/content/service.ts';
import { createEmbeddedStore } from '../server/content/store.ts';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * Error pages name one status in the status line, the `<title>` and the heading. A path that decodes
 * but cannot be a page is a 404 with the not-found message, escaped; 400 is for input that cannot be
 * decoded. Sent over a raw socket, so the request target arrives exactly as written.
 */

// Page 500 fails as a bug would, page 503 as an upstream that is down: the pipeline's own errors.
const store = createEmbeddedStore({ dir: 'content' });
const app = await demoServer({
  data: { demoChangeMs: 0 },
  content: {
    ...store,
    async getPage(uuid, locale, preview) {
      if (uuid === '500') throw new Error('a bug');
      if (uuid === '503') throw new ContentError('CONTENT_UPSTREAM', 'down', `pages/${uuid}`);
      return store.getPage(uuid, locale, preview);
    },
  },
});
t.teardown(() => app.close());
const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));

function rawGet(target: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(address.port), address.hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
    socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
}

const ROWS: [string, string, string, number, RegExp][] = [
  // name, host, request target, status, heading (in the storefront's language)
  ['broken percent-encoding', HOSTS.uk, '/cs/%zz-1', 400, /^Bad Request$/],
  ['not UTF-8', HOSTS.uk, '/cs/%C3%28-1', 400, /^Bad Request$/],
  ['raw script tag', HOSTS.uk, '/<script>alert(1)</script>', 404, /^Page Not Found$/],
  ['encoded script tag', HOSTS.uk, '/%3Cscript%3Ealert(1)%3C/script%3E', 404, /^Page Not Found$/],
  ['encoded script tag in a content path', HOSTS.uk, '/cs/%3Cscript%3E-1', 404, /^Page Not Found$/],
  ['encoded slash', HOSTS.uk, '/cs/a%2Fb-1', 404, /^Page Not Found$/],
  ['dot segments', HOSTS.uk, '/cs/%2e%2e/x-1', 404, /^Page Not Found$/],
  ['double slash', HOSTS.uk, '//evil.example/', 404, /^Page Not Found$/],
  ['overlong path', HOSTS.uk, `/cs/${'a'.repeat(3000)}-1`, 414, /^URI Too Long$/],
  ['a 400 in German', HOSTS.de, '/cs/%zz-1', 400, /^Ungültige Anfrage$/],
  ['a missing page', HOSTS.uk, '/cs/nothing-999999', 404, /^Page Not Found$/],
];

t.test('status line, title and heading name the same status', async (t) => {
  for (const [name, host, target, status, heading] of ROWS) {
    const { status: got, body } = await rawGet(target, host);
    t.equal(got, status, `${name}: status line`);
    const title = /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? '';
    t.match(title, new RegExp(`^${status} `), `${name}: title names ${status} (${title.slice(0, 60)})`);
    t.notMatch(
      title,
      status < 500 ? /Internal Server Error/ : /Page Not Found/,
      `${name}: title is not another status`,
    );
    t.match(/<h1>([^<]*)<\/h1>/.exec(body)?.[1] ?? '', heading, `${name}: heading`);
    t.match(/<p class="error-status">(\d+)<\/p>/.exec(body)?.[1], String(status), `${name}: status on the page`);
    t.notMatch(body, /<script>alert/, `${name}: nothing of the request comes back as markup`);
  }
});

t.test('the not-found message of an impossible path is the escaped request path', async (t) => {
  const { body } = await rawGet('/<script>alert(1)</script>', HOSTS.uk);
  t.match(body, 'Page not found: /&lt;script&gt;alert(1)&lt;/script&gt;');
});

/** The heading's message of each status, as in the error page. */
const TITLE_KEYS: Record<number, string> = {
  400: 'error.badRequest.title',
  404: 'error.notFound.title',
  414: 'error.uriTooLong.title',
  500: 'error.server.title',
  503: 'error.unavailable.title',
};

/** Every kind of error page, wherever it is answered, under a language prefix (`{l}`). */
const UNDER_A_PREFIX: [string, string, string, number][] = [
  // name, method, request target, status
  ['the router: a bad prefix', 'GET', '/{l}/nope/nothing', 404],
  ['the router: no route', 'GET', '/{l}/cs/nothing', 404],
  ['the router: undecodable', 'GET', '/{l}/cs/%zz-1', 400],
  ['the router: too long', 'GET', `/{l}/cs/${'a'.repeat(3000)}-1`, 414],
  ['the page: missing', 'GET', '/{l}/cs/nothing-999999', 404],
  ['the page: a bug', 'GET', '/{l}/cs/broken-500', 500],
  ['the page: content down', 'GET', '/{l}/cs/down-503', 503],
  ['no route for the method', 'POST', '/{l}/cs/x-4711', 404],
];

t.test('every error page speaks the language of its URL', async (t) => {
  const { config } = loadSitesConfig('config/sites.json');
  for (const site of config.sites.filter(isMultilingual)) {
    for (const locale of site.locales) {
      const words = JSON.parse(readFileSync(`locales/${locale}.json`, 'utf8')) as Record<string, string>;
      const language = languageOf(locale);
      for (const [name, method, target, status] of UNDER_A_PREFIX) {
        const what = `${site.host} ${locale}, ${name}`;
        const { status: got, body } = await rawGet(target.replace('{l}', language), site.host, method);
        t.equal(got, status, `${what}: status`);
        t.match(body, `<html lang="${locale}">`, `${what}: the document's language`);
        t.equal(/<h1>([^<]*)<\/h1>/.exec(body)?.[1], words[TITLE_KEYS[status] ?? ''], `${what}: heading`);
        t.match(body, `<a class="button" href="/${language}">${words['error.backHome']}</a>`, `${what}: home link`);
      }
    }
  }
});
