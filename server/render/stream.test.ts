import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createElement, type ReactElement } from 'react';
import t from 'tap';
import { streamDocument } from './stream.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Renders a document and measures it as the reply does (its Content-Length, which makes the string
 * one flat piece); only its size leaves this function, so nothing here keeps the document.
 */
async function sentBytes(element: ReactElement): Promise<number | string> {
  const document = await streamDocument(element, (error) => {
    throw error;
  });
  return typeof document === 'string' ? Buffer.byteLength(document) : 'not whole';
}

t.test('a document handed over whole is not kept by the render after it', async (t) => {
  // 2,000 paragraphs of one shared 2 KB string: a 4 MB document from a tree that holds 2 KB of text.
  const text = 'x'.repeat(2_000);
  const paragraphs = Array.from({ length: 2_000 }, (_, i) => createElement('p', { key: i }, text));
  const element = createElement('html', null, createElement('body', null, paragraphs));
  const before = heapAfterGc();
  const bytes = await sentBytes(element);
  t.ok(typeof bytes === 'number' && bytes > 4_000_000, 'a document with nothing suspended comes whole');
  // React's own timer from the start of the render has not fired yet: until it does, it holds the
  // render, and the render must not hold the document (kept, it outlives a young-generation
  // collection and is promoted, on every request under load).
  const kept = heapAfterGc() - before;
  t.ok(kept < 1_000_000, `${(kept / 1e6).toFixed(1)} MB kept after the document was sent`);
});

/** Timers armed and not yet fired or cleared, in this process. */
function pendingTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

t.test("a complete document leaves no timer of React's holding the render", async (t) => {
  const arm = globalThis.setTimeout;
  const before = pendingTimers();
  const element = createElement('html', null, createElement('body', null, createElement('p', null, 'whole')));
  const bytes = await sentBytes(element);
  t.type(bytes, 'number', 'the document came whole');
  // React's start timer held its request (about 20 KB) until the next timers phase; under load every
  // render of an event-loop turn was alive at the next young-generation collection.
  t.equal(pendingTimers(), before, 'no timer left pending once the document is whole');
  t.equal(globalThis.setTimeout, arm, 'the global setTimeout is the one it was');
});

t.test('no render leaves a function of its own in the global object', async (t) => {
  // A closure made per render and written into the global setTimeout kept that render alive through
  // young-generation collections, and then V8 allocated React's work in the old generation, where
  // dead renders kept the later ones (decision 0209): whatever is set there must be one function.
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'setTimeout') as PropertyDescriptor;
  let current = globalThis.setTimeout;
  const written = new Set<unknown>();
  Object.defineProperty(globalThis, 'setTimeout', {
    configurable: true,
    get: () => current,
    set: (value: typeof setTimeout) => {
      written.add(value);
      current = value;
    },
  });
  t.teardown(() => Object.defineProperty(globalThis, 'setTimeout', descriptor));
  const original = current;
  for (let i = 0; i < 3; i++) {
    const element = createElement('html', null, createElement('body', null, createElement('p', null, `render ${i}`)));
    t.type(await sentBytes(element), 'number', `render ${i} came whole`);
  }
  written.delete(original);
  t.equal(written.size, 1, 'every render sets the same function while React starts');
  t.equal(current, original, 'and puts the global back');
});
