// Locks by key within one Durable Object (the StorageLedger's per-key lock: a write's settle and a delete of the same
// key never interleave their R2 reads and table writes). Each key has a queue; a call takes all of its keys' places in
// one synchronous step, so two calls queue in the same order on every key they share and can never wait on each
// other in a cycle.
export class KeyLocks {
  /** The tail of each key's lock queue. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `fn` holding the locks of `keys`. */
  async run<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const waits: Promise<void>[] = [];
    const releases: (() => void)[] = [];
    for (const key of keys) {
      const previous = this.tails.get(key) ?? Promise.resolve();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => held);
      this.tails.set(key, tail);
      waits.push(previous);
      releases.push(() => {
        release();
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
    }
    try {
      await Promise.all(waits);
      return await fn();
    } finally {
      for (const release of releases) release();
    }
  }

  /** Resolves once every lock held or queued now is released. */
  async idle(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
