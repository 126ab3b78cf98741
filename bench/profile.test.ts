import t from 'tap';
import { busy, hotspots, youngCollections } from './profile.ts';

t.test('shares are of the working time: idle samples are counted apart', async (t) => {
  const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0 });
  const profile = {
    startTime: 0,
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3, 4] },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('render') },
      { id: 4, callFrame: frame('send') },
    ],
    samples: [2, 3, 2, 4, 3, 2],
    timeDeltas: [100, 100, 100, 100, 100, 100],
  };
  const { profile: working, idle } = busy(profile);
  t.equal(idle, 0.5, 'half the run was idle');
  t.same(
    hotspots(working).map((h) => [h.name, h.share]),
    [
      ['render', 2 / 3],
      ['send', 1 / 3],
    ],
    'two thirds of the working time rendered, whatever the idle time',
  );
});

t.test("young collections are read from V8's --trace-gc-nvp lines, other lines ignored", async (t) => {
  const log = [
    '{"level":30,"msg":"Server listening"}',
    '[1:0x1:0]  10 ms: pause=40.0 mutator=9.0 gc=s reduce_memory=0 allocated=60000000 promoted=4000000 new_space_survived=5000000 new_space_capacity=67108864',
    '[1:0x1:0]  20 ms: pause=20.0 mutator=9.0 gc=s reduce_memory=0 allocated=60000000 promoted=2000000 new_space_survived=1000000 new_space_capacity=33554432',
    '[1:0x1:0]  30 ms: pause=90.0 mutator=9.0 gc=mc reduce_memory=0 promoted=9999999',
  ].join('\n');
  t.same(youngCollections(log), {
    count: 2,
    meanPauseMs: 30,
    promotedKb: 6_000_000 / 2 / 1024,
    survivedKb: 6_000_000 / 2 / 1024,
    youngMb: 64,
  });
  t.equal(youngCollections('no collections here').count, 0, 'none when the log has none');
});
