import t from 'tap';
import { guardMemoryUsage } from './memory-usage.ts';

t.test(
  'with no descriptor left, memoryUsage answers the heap and the last resident size instead of throwing',
  async (t) => {
    let failing = false;
    const emfile = () =>
      Object.assign(new Error('EMFILE: too many open files, uv_resident_set_memory'), { code: 'EMFILE' });
    const real = process.memoryUsage;
    const target = {
      memoryUsage: Object.assign(
        () => {
          if (failing) throw emfile();
          return real();
        },
        {
          rss: () => {
            if (failing) throw emfile();
            return 1234;
          },
        },
      ),
    };
    guardMemoryUsage(target);
    const before = target.memoryUsage();
    failing = true;
    const during = target.memoryUsage();
    t.equal(during.rss, before.rss, 'the last good resident set size');
    t.ok(during.heapUsed > 0, 'the heap from V8');
    t.equal(target.memoryUsage.rss(), before.rss);
    failing = false;
    t.equal(target.memoryUsage.rss(), 1234, 'read again once it can be');
    const guarded = target.memoryUsage;
    guardMemoryUsage(target);
    t.equal(target.memoryUsage, guarded, 'guarded once');
  },
);
