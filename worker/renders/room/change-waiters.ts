// In-memory waiters keyed by id (a render's end, a browser job's change): each is answered once, by `notify` or by
// its timeout. They live only as long as the Durable Object's memory; a caller whose call broke because the object
// was evicted simply asks again (worker/checks/wait-for-job.ts, worker/renders/render-routes.ts).
export class ChangeWaiters<T> {
  private readonly byKey = new Map<string, Set<(value: T) => void>>();

  /** Resolves with the value `notify` gives, or with `onTimeout` after `timeoutMs` (never, if undefined). */
  wait(key: string, timeoutMs?: number, onTimeout?: T): Promise<T> {
    return new Promise((resolve) => {
      const set = this.byKey.get(key) ?? new Set();
      this.byKey.set(key, set);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answer = (value: T) => {
        if (timer) clearTimeout(timer);
        set.delete(answer);
        if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
        resolve(value);
      };
      set.add(answer);
      if (timeoutMs !== undefined) timer = setTimeout(() => answer(onTimeout as T), Math.max(0, timeoutMs));
    });
  }

  notify(key: string, value: T): void {
    for (const answer of [...(this.byKey.get(key) ?? [])]) answer(value);
  }
}
