import t from 'tap';
import { slashForm, trailingSlashTarget } from './trailing-slash.ts';

const OFF = { trailingSlash: false };
const ON = { trailingSlash: true };

t.test('a path in the site’s spelling: no trailing slash by default, exactly one when set', async (t) => {
  const rows: [string, string, string][] = [
    // path, off, on
    ['/', '/', '/'],
    ['//', '/', '/'],
    ['/de', '/de', '/de/'],
    ['/de/', '/de', '/de/'],
    ['/de/cs/x-1', '/de/cs/x-1', '/de/cs/x-1/'],
    ['/de/cs/x-1///', '/de/cs/x-1', '/de/cs/x-1/'],
    ['/de/cs/x-1?q=1', '/de/cs/x-1?q=1', '/de/cs/x-1/?q=1'],
    ['/de/cs/x-1/?q=a/b/', '/de/cs/x-1?q=a/b/', '/de/cs/x-1/?q=a/b/'],
    ['/de/cs/x-1#top', '/de/cs/x-1#top', '/de/cs/x-1/#top'],
    ['/?q=1', '/?q=1', '/?q=1'],
  ];
  for (const [path, off, on] of rows) {
    t.equal(slashForm(OFF, path), off, `${path} off`);
    t.equal(slashForm(ON, path), on, `${path} on`);
    t.equal(slashForm({}, path), off, `${path} unset is off`);
  }
});

t.test('a request in the other spelling is sent to the site’s, one in the site’s is left alone', async (t) => {
  const rows: [typeof ON, string, string | null][] = [
    [OFF, '/', null],
    [OFF, '/de', null],
    [OFF, '/de/', '/de'],
    [OFF, '/de/cs/x-1//', '/de/cs/x-1'],
    [ON, '/', null],
    [ON, '/de/', null],
    [ON, '/de', '/de/'],
    [ON, '/de/cs/x-1', '/de/cs/x-1/'],
    [ON, '/de/cs/x-1//', '/de/cs/x-1/'],
  ];
  for (const [site, path, target] of rows) {
    t.equal(trailingSlashTarget(site, path), target, `${path} with trailingSlash ${site.trailingSlash}`);
  }
});
