/**
 * Leading and trailing throttle (`sync-field` at most once per 300 ms): the first
 * call runs at once, later calls within the window collapse into one run at its end with the latest
 * arguments. `flush` runs a pending call now; `cancel` drops it.
 */
export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  flush(): void;
  cancel(): void;
}

export function throttle<A extends unknown[]>(run: (...args: A) => void, ms: number): Throttled<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const tick = () => {
    timer = undefined;
    if (!pending) return;
    const args = pending;
    pending = undefined;
    run(...args);
    timer = setTimeout(tick, ms);
  };
  const throttled = (...args: A) => {
    if (timer === undefined) {
      run(...args);
      timer = setTimeout(tick, ms);
    } else pending = args;
  };
  throttled.flush = () => {
    clearTimeout(timer);
    tick();
    clearTimeout(timer);
    timer = undefined;
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return throttled;
}
