import t from 'tap';
import { type RequestFacts, type RouteKind, routeKind, statusClass } from './route-kind.ts';

t.test('route kinds', async (t) => {
  const cases: [RequestFacts, RouteKind][] = [
    [{ url: '/cs/kitchen/x-4711', route: '/*', status: 200 }, 'page'],
    [{ url: '/de', route: '/*', status: 200 }, 'page'],
    [{ url: '/cs/kitchen/x-4711', route: '/*', status: 304 }, 'page'],
    [{ url: '/cs/kitchen/x-4711/_payload.json', route: '/*', status: 200 }, 'payload'],
    [{ url: '/?/_payload.json', route: '/*', status: 200 }, 'page'],
    [{ url: '/', route: '/*', status: 302 }, 'redirect'],
    [{ url: '/x/_payload.json', route: '/*', status: 301 }, 'redirect'],
    [{ url: '/nope', route: '/*', status: 404 }, 'error'],
    [{ url: '/nope', route: undefined, status: 404 }, 'error'],
    [{ url: '/cs/x-1', route: '/*', status: 503 }, 'error'],
    [{ url: '/cs/x-1?live_preview=abc', route: '/*', status: 200 }, 'preview'],
    [{ url: '/cs/live', route: '/*', status: 200 }, 'preview'],
    [{ url: '/img/800/0123456789ab/oven.jpg', route: '/img/:width/:hash/:name', status: 200 }, 'image'],
    [{ url: '/img/99/x', route: undefined, status: 404 }, 'image'],
    [{ url: '/fr/cs/live/125', route: '/*', status: 200 }, 'preview'],
    [{ url: '/cs/live-music-4711', route: '/*', status: 200 }, 'page'],
    [{ url: '/assets/runtime-abc.js', route: '/assets/*', status: 200 }, 'asset'],
    [{ url: '/assets/missing.js', route: '/assets/*', status: 404 }, 'asset'],
    [{ url: '/images/hero.svg', route: '/images/*', status: 304 }, 'asset'],
    [{ url: '/favicon.ico', route: '/favicon.ico', status: 200 }, 'asset'],
    [{ url: '/icons/icon.svg', route: '/icons/:name', status: 200 }, 'asset'],
    [{ url: '/sitemap.xml', route: '/sitemap.xml', status: 200 }, 'api'],
    [{ url: '/graphql', route: '/graphql', status: 200 }, 'graphql'],
    [{ url: '/graphql?x=1', route: '/graphql', status: 400 }, 'graphql'],
    [{ url: '/healthcheck', route: '/healthcheck', status: 200 }, 'api'],
    [{ url: '/readyz', route: '/readyz', status: 503 }, 'api'],
    [{ url: '/cs/api/pages/125?language=en-GB', route: '/cs/api/:service/:uuid', status: 200 }, 'api'],
    [{ url: '/builds/latest.json', route: '/builds/latest.json', status: 200 }, 'api'],
  ];
  for (const [facts, kind] of cases) t.equal(routeKind(facts), kind, `${facts.status} ${facts.url}`);
});

t.test('status classes', async (t) => {
  t.same([101, 200, 204, 304, 404, 499, 500, 503, 0, 999].map(statusClass), [
    '1xx',
    '2xx',
    '2xx',
    '3xx',
    '4xx',
    '4xx',
    '5xx',
    '5xx',
    '5xx',
    '5xx',
  ]);
});
