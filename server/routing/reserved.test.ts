import t from 'tap';
import { isReservedPath } from './reserved.ts';

t.test('reserved paths, matched segment by segment', async (t) => {
  const rows: [string, boolean][] = [
    ['/assets/app-1a2b.js', true],
    ['/assets', true],
    ['/live', true],
    ['/live/x', true],
    ['/api/x', true],
    ['/healthcheck', true],
    ['/cs/api/contentstack/pages/125', true],
    ['/graphql', true],
    ['/builds/latest.json', true],
    ['/_applicationConfiguration', true],
    ['/lively', false],
    ['/apiary', false],
    ['/de/cs/live', false],
    ['/cs/api-guide-12', false],
    ['/de/api', false],
    ['/', false],
  ];
  for (const [path, reserved] of rows) t.equal(isReservedPath(path), reserved, path);
});
