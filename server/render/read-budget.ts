/**
 * One deadline for several reads, so a slow content source holds the page itself but never the parts
 * around it: each read past the deadline resolves to its fallback, and `missed` tells.
 */
export function readBudget(ms: number) {
  let expire: () => void = () => {};
  const expired = new Promise<void>((resolve) => {
    expire = resolve;
  });
  const timer = setTimeout(() => expire(), ms);
  const budget = {
    missed: false,
    within<T>(read: Promise<T>, fallback: () => T): Promise<T> {
      return Promise.race([
        read,
        expired.then(() => {
          budget.missed = true;
          return fallback();
        }),
      ]);
    },
    done: () => clearTimeout(timer),
  };
  return budget;
}
