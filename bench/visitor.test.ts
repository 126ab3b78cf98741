import t from 'tap';
import { bestOf, formatVisitor, holding, runOf, scriptBytesInGraphs, type VisitorRow } from './visitor.ts';

/** The visitor table's arithmetic: figures from a Lighthouse result, best of the runs, the contract's line. */
const audits = (lcp: number | undefined, items: { resourceType: string; transferSize: number }[] = []) => ({
  audits: {
    'largest-contentful-paint': lcp === undefined ? { errorMessage: 'NO_LCP' } : { numericValue: lcp },
    'total-blocking-time': { numericValue: 30 },
    'cumulative-layout-shift': { numericValue: 0 },
    'network-requests': { details: { items } },
  },
});

t.test('a result gives its metrics and its script and image bytes', async (t) => {
  const run = runOf(
    audits(1200, [
      { resourceType: 'Script', transferSize: 1000 },
      { resourceType: 'Script', transferSize: 24 },
      { resourceType: 'Image', transferSize: 2048 },
      { resourceType: 'Document', transferSize: 9999 },
    ]),
  );
  t.same(run, { lcp: 1200, tbt: 30, cls: 0, jsBytes: 1024, imageBytes: 2048 });
});

t.test('a result without LCP says so instead of giving figures', async (t) => {
  t.same(runOf(audits(undefined)), { error: 'no largest-contentful-paint: NO_LCP' });
});

t.test(
  'best of the runs takes each figure at its lowest, and the scripts in the LCP graph at their most',
  async (t) => {
    const runs = [
      { lcp: 1500, tbt: 10, cls: 0, jsBytes: 5, imageBytes: 7, lcpScriptBytes: 0 },
      { lcp: 1100, tbt: 90, cls: 0.01, jsBytes: 5, imageBytes: 7, lcpScriptBytes: 3 },
    ];
    t.same(bestOf(runs), { lcp: 1100, tbt: 10, cls: 0, jsBytes: 5, imageBytes: 7, lcpScriptBytes: 3 });
  },
);

t.test("the scripts in Lantern's LCP graphs count once each, and nothing else counts", async (t) => {
  const script = (url: string, transferSize: number) => ({
    type: 'network',
    request: { url, resourceType: 'Script', transferSize },
  });
  const optimistic = [script('/runtime.js', 100), { type: 'cpu' }];
  const pessimistic = [
    script('/runtime.js', 100),
    script('/react-dom.js', 5000),
    { type: 'network', request: { url: '/hero.jpg', resourceType: 'Image', transferSize: 9000 } },
  ];
  t.equal(scriptBytesInGraphs([optimistic, pessimistic]), 5100);
  t.equal(scriptBytesInGraphs([[], []]), 0);
});

t.test('the table ends with the product page ratio, in the contract form', async (t) => {
  const row = (variant: VisitorRow['variant'], page: string, lcp: number): VisitorRow => ({
    variant,
    page,
    lcp,
    tbt: 0,
    cls: 0,
    jsBytes: 2048,
    imageBytes: 0,
    lcpScriptBytes: 512,
  });
  const lines = formatVisitor(
    [
      row('React islands', 'home', 900),
      row('React islands', 'product page', 1320),
      row('Preact build', 'product page', 1250),
      row('islands off (no JavaScript)', 'product page', 1200),
    ],
    3,
  );
  t.match(
    lines[0],
    /^visitor \(Lighthouse mobile, simulated, best of 3\)\s+LCP ms\s+TBT ms\s+CLS\s+JS KB\s+JS in LCP graph KB\s+image KB$/,
  );
  t.match(lines[3], /^product page, React islands\s+1320\s+0\s+0\.000\s+2\.0\s+0\.5\s+0\.0$/);
  t.equal(lines.at(-1), 'product page LCP with React islands: 110% of the page without JavaScript');
});

t.test('what the bench holds is released, last first, when measuring fails half-way', async (t) => {
  const released: string[] = [];
  const failing = holding(async (hold) => {
    hold(() => released.push('preact build folder'));
    hold(async () => {
      released.push('react server');
      throw new Error('already gone');
    });
    hold(() => released.push('preact server'));
    throw new Error('/ answered 503 while warming up');
  });
  const stderr = process.stderr.write;
  const reported: string[] = [];
  process.stderr.write = ((text: string) => reported.push(text) > 0) as typeof process.stderr.write;
  try {
    await t.rejects(failing, /answered 503 while warming up/, "measuring's own error reaches the caller");
  } finally {
    process.stderr.write = stderr;
  }
  t.same(released, ['preact server', 'react server', 'preact build folder'], 'a failed release stops no other');
  t.match(reported.join(''), /releasing failed: Error: already gone/);
  t.equal(await holding(async () => 'table'), 'table', 'a run that ends well gives its result');
});
