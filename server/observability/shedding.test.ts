import { Writable } from 'node:stream';
import t from 'tap';
import { demoServer } from '../../test/helpers.ts';
import { until } from '../../test/until.ts';
import { Metrics } from './metrics.ts';

/** The log lines the server writes, parsed. */
function logLines(): { stream: Writable; lines: { msg: string; more?: number }[] } {
  const lines: { msg: string; more?: number }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

t.test('shed requests are logged at most so many times an interval, the rest in one summary line', async (t) => {
  const { stream, lines } = logLines();
  const metrics = new Metrics();
  const app = await demoServer({
    // Any heap at all is too much: every request after the first sample is shed.
    pressure: { maxHeapUsedBytes: 1, sampleInterval: 10, shedLog: { lines: 3, intervalMs: 500 } },
    logger: { level: 'warn', stream },
    metrics,
  });
  t.teardown(() => app.close());
  const shedCount = async () =>
    [...(await metrics.text()).body.matchAll(/^vitrine_shed_requests_total\{[^}]*\} (\d+)$/gm)].reduce(
      (sum, [, n]) => sum + Number(n),
      0,
    );
  await until(async () => (await app.inject({ url: '/', headers: { host: 'localhost' } })).statusCode === 503, {
    what: 'the first heap sample to shed a page',
  });
  for (let i = 0; i < 30; i++) await app.inject({ url: '/', headers: { host: 'localhost' } });
  const summary = await until(() => lines.find((line) => /more requests shed/.test(line.msg)), {
    what: 'the summary line',
  });
  const shed = await shedCount();
  t.ok(shed >= 31, `every shed request counted in the metric (${shed})`);
  const each = lines.filter((line) => line.msg === 'Under pressure: request shed');
  t.equal(each.length, 3, 'three lines of their own');
  t.equal(summary.more, shed - 3, 'the rest in one summary line');
  t.match(summary.msg, /in the last 0\.5 s/, 'which says over how long');
});
