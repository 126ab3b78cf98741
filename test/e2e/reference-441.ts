import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { freePort } from './server.ts';

/**
 * The published live-preview-utils 4.4.1 build (vendored under test/fixtures/live-preview-utils-4.4.1)
 * served next to fixture pages, so a 4.x browser test runs each scenario against 4.4.1 itself as
 * well as against our layer. The build is at `/lpu.js`; pages are served by path.
 */

const BUILD = new URL('../fixtures/live-preview-utils-4.4.1/live-preview-utils-4.4.1.min.js', import.meta.url);

export interface ReferenceFixture {
  /** `http://127.0.0.1:{port}{path}` of the fixture server. */
  url(path: string): string;
  /** Why the 4.4.1 runs are skipped (the vendored build is missing), or false. */
  skip: string | false;
}

/** Starts the fixture server for a test file (top-level await); it stops with the file's tests. */
export async function startReferenceFixture(
  t: { teardown(fn: () => unknown): void },
  pages: Record<string, string>,
): Promise<ReferenceFixture> {
  const build = existsSync(BUILD) ? await readFile(BUILD, 'utf8') : undefined;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fixture').pathname;
    const js = path === '/lpu.js';
    const body = js ? build : pages[path];
    response.writeHead(body === undefined ? 404 : 200, {
      'content-type': js ? 'text/javascript' : 'text/html',
      'cache-control': 'no-store',
    });
    response.end(body ?? '');
  });
  const port = await freePort();
  server.listen(port, '127.0.0.1');
  t.teardown(() => server.close());
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    skip: build ? false : 'the vendored live-preview-utils 4.4.1 build is missing',
  };
}
