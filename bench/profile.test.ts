import t from 'tap';
import { busy, hotspots } from './profile.ts';

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
