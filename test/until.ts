/**
 * Test support: waits for a condition instead of for a length of time. The probe runs now and
 * then every `every` ms until it returns something truthy, which `until` resolves to; after
 * `timeout` ms it rejects naming `what` and the last value seen. On a loaded machine a wait grows
 * as long as it must and no longer, so a slow run is slow, not red.
 */
/** What a truthy probe result can be. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function until<T>(
  probe: () => T | Promise<T>,
  { what = 'the condition', timeout = 5_000, every = 5 }: { what?: string; timeout?: number; every?: number } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeout;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeout} ms waiting for ${what} (last: ${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
