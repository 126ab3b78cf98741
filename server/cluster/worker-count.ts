/** `WORKERS`: unset is one process (no cluster), `auto` one per core, else the number given. */
export function workerCount(setting: string | undefined, cores: number): number {
  if (setting === undefined || setting === '') return 1;
  if (setting === 'auto') return Math.max(1, cores);
  return Number(setting);
}
