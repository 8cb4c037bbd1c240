// The part of Node's AsyncLocalStorage the Worker uses (gated-fetch.ts); workerd provides it under nodejs_compat,
// and the Worker's type setup has no Node types.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}
