import { readFileSync } from 'node:fs';
import t from 'tap';
import { parse } from 'yaml';

/**
 * deploy/: the compose file an operator starts and the balancer config it mounts. No Docker engine
 * runs here, so the file is checked for what `docker compose up` relies on (HAProxy checks its own
 * config in test/system/haproxy.test.ts).
 */

interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
}

const compose = parse(readFileSync('deploy/compose.yaml', 'utf8')) as {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } }>;
};
const haproxy = readFileSync('deploy/haproxy.cfg', 'utf8');

t.test('three app instances share one Redis and sit behind the balancer', async (t) => {
  const apps = ['app1', 'app2', 'app3'].map((name) => compose.services[name]);
  for (const app of apps) {
    t.ok(app?.build, 'built from this repository');
    t.equal(app?.environment?.REDIS_URL, 'redis://redis:6379');
    t.equal(app?.environment?.NODE_ENV, 'production');
  }
  t.match(compose.services.redis?.image, /^redis:/);
  t.match(compose.services.haproxy?.image, /^haproxy:/);
  t.ok(
    compose.services.haproxy?.volumes?.some((v) => v.startsWith('./haproxy.cfg:')),
    'the config is mounted',
  );
  for (const name of ['app1', 'app2', 'app3']) t.match(haproxy, new RegExp(`server ${name} ${name}:3000 check`));
  t.match(haproxy, /uri \/readyz/, 'instances are health-checked on /readyz');
});

t.test('the instances trust the balancer alone, at its fixed address', async (t) => {
  const balancer = compose.services.haproxy?.networks?.default?.ipv4_address;
  t.match(balancer, /^\d+\.\d+\.\d+\.\d+$/, 'the balancer has a fixed address');
  const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
  t.ok(balancer?.startsWith(subnet.replace(/\.0\/24$/, '.')), `${balancer} is inside ${subnet}`);
  for (const name of ['app1', 'app2', 'app3']) {
    t.equal(compose.services[name]?.environment?.TRUST_PROXY, balancer, `${name} trusts only the balancer`);
  }
});
