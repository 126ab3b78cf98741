/**
 * Test support, the one way tests wait (docs/decisions/0039-tests-wait-for-events.md): for a
 * condition, never for a length of time. The probe runs now and then every `every` ms until it
 * returns something truthy, which `until` resolves to; after `timeout` ms it rejects naming `what`
 * and the last value seen. On a loaded machine a wait grows as long as it must and no longer, so a
 * slow run is slow, not red. For "nothing happened", drive the trigger or the fake clock, then
 * `flush()`.
 */
// The real timer and clock, taken before any test fakes them (node:test's mock.timers), so a test
// can wait for a socket while its own clock stands still.
const realSetTimeout = globalThis.setTimeout;
const realSetImmediate = globalThis.setImmediate;
const realNow = Date.now;

/** What a truthy probe result can be. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function until<T>(
  probe: () => T | Promise<T>,
  { what = 'the condition', timeout = 5_000, every = 5 }: { what?: string; timeout?: number; every?: number } = {},
): Promise<Truthy<T>> {
  const deadline = realNow() + timeout;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as Truthy<T>;
    if (realNow() > deadline)
      throw new Error(`Timed out after ${timeout} ms waiting for ${what} (last: ${String(last)})`);
    await new Promise((resolve) => realSetTimeout(resolve, every));
  }
}

/**
 * Lets everything already queued run: promise reactions, then one turn of the event loop
 * (`setImmediate` runs after the timers and I/O callbacks that are due). Enough for work a fake
 * fetch, a fake clock or an event has set off; not a wait for real I/O, which needs `until`.
 */
export async function flush(): Promise<void> {
  await new Promise<void>((resolve) => realSetImmediate(resolve));
}
