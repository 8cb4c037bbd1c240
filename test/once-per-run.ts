// Work a global setup does once for the whole vitest run, however many projects list it: `node` and `node-shared`
// both need the dashboard built and the studio data folder prepared, and each project loads its global setup files
// anew (a module-level variable would be one per project). The run's one process keeps the promise on globalThis.
// Building the dashboard twice would also empty dashboard/dist under a studio the other project already started.

/** The promise `make` gave the first caller for `key` in this process; later callers get the same one. */
export function oncePerRun<T>(key: string, make: () => Promise<T>): Promise<T> {
  const slot = Symbol.for(`studio-tests:${key}`);
  const store = globalThis as unknown as Record<symbol, Promise<T> | undefined>;
  store[slot] ??= make();
  return store[slot];
}
