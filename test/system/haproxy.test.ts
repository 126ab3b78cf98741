import { spawnSync } from 'node:child_process';
import t from 'tap';
import { HAPROXY, needs } from './parts.ts';

/** deploy/haproxy.cfg as HAProxy itself reads it: what `docker compose up` mounts into the balancer. */
t.test('HAProxy accepts its config', async (t) => {
  if (!needs(t, [HAPROXY])) return;
  const check = spawnSync('/usr/sbin/haproxy', ['-c', '-f', 'deploy/haproxy.cfg'], { encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
});
