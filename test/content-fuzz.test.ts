import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { applyMutations, mutationArbitrary, readTree, unescapedMarkup, writeTree } from './content-mutations.ts';
import { demoServer, fetchPage } from './helpers.ts';

/**
 * Property: content mutated the way editors do never breaks a page. For any set of mutations of
 * the demo content and of the spec-shaped fixture: the server starts, no page whose entry exists
 * answers 5xx, no hostile string comes back as live markup, and every content warning names where
 * the entry came from and a JSON path.
 *
 * Seeded and bounded for `npm test`; `FUZZ_RUNS=2000 npx tap test/content-fuzz.test.ts` runs longer
 * (`FUZZ_SEED` picks another seed) and prints what it counted.
 */

const RUNS = Number(process.env.FUZZ_RUNS) || 4;
const SEED = Number(process.env.FUZZ_SEED) || 18;
const LONG = process.env.FUZZ_RUNS !== undefined;

interface Base {
  name: string;
  /** A folder holding the part of the content store to mutate (copied under `{locale}/…`). */
  content: string;
  locales: string[];
  sites: string;
  /** Host and route prefix of each locale. */
  where: Record<string, { host: string; prefix: string }>;
}

const BASES: Base[] = [
  {
    name: 'demo content (www.halden.co.uk, en-GB)',
    content: 'content',
    locales: ['en-GB'],
    sites: 'config/sites.json',
    where: { 'en-GB': { host: 'www.halden.co.uk', prefix: '' } },
  },
  {
    name: 'spec-shaped fixture (two storefronts, three locales)',
    content: 'test/fixtures/spec-site/content',
    locales: ['de-CH', 'fr-CH', 'de-DE'],
    sites: 'test/fixtures/spec-site/sites.json',
    where: {
      'de-CH': { host: 'shop.nordlicht.ch', prefix: '/de' },
      'fr-CH': { host: 'shop.nordlicht.ch', prefix: '/fr' },
      'de-DE': { host: 'shop.nordlicht.de', prefix: '' },
    },
  },
];

for (const base of BASES) {
  t.test(base.name, async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'vitrine-fuzz-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    for (const locale of base.locales)
      cpSync(join(base.content, locale), join(root, 'base', locale), { recursive: true });
    const tree = readTree(join(root, 'base'));
    const pages = [...tree.keys()].flatMap((file) => {
      const match = /^([a-z]{2}-[A-Z]{2})\/pages\/(\d+)\.json$/.exec(file);
      return match ? [{ file, locale: match[1] as string, uuid: match[2] as string }] : [];
    });

    const counts = { runs: 0, requests: 0, serverErrors: 0, warnings: 0 };
    const problems: string[] = [];
    const samples = new Map<string, object>();
    let run = 0;

    await fc.assert(
      fc.asyncProperty(fc.array(mutationArbitrary, { minLength: 1, maxLength: 6 }), async (mutations) => {
        const { tree: mutated, labels } = applyMutations(tree, mutations);
        const dir = join(root, `run-${run++}`);
        writeTree(dir, mutated);
        const lines: Record<string, unknown>[] = [];
        const stream = new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
            done();
          },
        });
        counts.runs++;
        let app: FastifyInstance;
        try {
          app = await demoServer({
            sites: base.sites,
            contentDir: dir,
            htmlCache: false,
            data: { demoChangeMs: 0 },
            // Load shedding answers 503 on a busy machine: a statement about the machine, not the content.
            pressure: { maxEventLoopDelay: 0, maxHeapUsedBytes: 0 },
            logger: { level: 'warn', stream },
          });
          await app.ready();
        } catch (error) {
          problems.push(`server did not start after ${labels.join('; ')}: ${(error as Error).message}`);
          return LONG;
        }
        try {
          for (const { file, locale, uuid } of pages) {
            if (!mutated.has(file)) continue;
            const { host, prefix } = base.where[locale] as { host: string; prefix: string };
            const url = uuid === '125' ? prefix || '/' : `${prefix}/cs/page-${uuid}`;
            const answer = await fetchPage(app, host, url);
            counts.requests++;
            if (answer.status >= 500 || answer.status === 0) {
              counts.serverErrors++;
              problems.push(`${answer.status} for ${locale} page ${uuid} (${answer.url}) after ${labels.join('; ')}`);
            }
            const live = await unescapedMarkup(answer.body);
            if (live) problems.push(`${live} unescaped in ${answer.url} after ${labels.join('; ')}`);
          }
        } finally {
          await app.close();
          rmSync(dir, { recursive: true, force: true });
        }
        for (const line of lines) {
          if (line.where === undefined) continue;
          counts.warnings++;
          if (typeof line.where !== 'string' || typeof line.path !== 'string' || !line.path.startsWith('$'))
            problems.push(`warning without a source and JSON path: ${JSON.stringify(line)}`);
          else samples.set(String(line.msg).replace(/\d+/g, 'N').slice(0, 60), line);
        }
        // Keep going past a 5xx in a long run so the count is complete; stop on the rest.
        return LONG || problems.length === 0;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    t.same(problems, [], 'no 5xx, no live hostile markup, every warning names its source and path');
    t.ok(counts.warnings > 0, 'the mutations were noticed (warnings were logged)');
    t.comment(
      `${counts.runs} mutated stores, ${counts.requests} page requests, ${counts.serverErrors} answered 5xx, ${counts.warnings} content warnings`,
    );
    if (LONG) {
      for (const sample of [...samples.values()].slice(0, 12)) {
        const { where, uid, path, msg } = sample as Record<string, unknown>;
        t.comment(JSON.stringify({ where, uid, path, msg }).slice(0, 300));
      }
    }
  });
}
