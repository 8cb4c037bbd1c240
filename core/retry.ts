// Retrying work that may fail for a moment: one loop and one delay rule for the Worker, its scripts and its nodes,
// instead of one hand-written loop per caller. The outcome is a value (ok, or the last error with the attempts
// made), so a caller decides what giving up means; nothing is swallowed. Pure but for setTimeout: runs in workerd,
// Node and the browser alike.

/** How long to wait before each retry: `firstMs`, multiplied by `factor` (2 unless said) each time, at most `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs?: number;
  factor?: number;
}

/** The delay before retry number `retry` (1 is the first retry, after the first attempt failed). */
export function backoffDelay(backoff: Backoff, retry: number): number {
  const delay = backoff.firstMs * (backoff.factor ?? 2) ** Math.max(0, retry - 1);
  return Math.min(backoff.maxMs ?? Number.POSITIVE_INFINITY, delay);
}

export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  backoff: Backoff;
  /** Whether this error is worth another attempt; an error it refuses ends the retries at once. Every error is, unless said. */
  retryable?: (error: unknown) => boolean;
  /** Called before each wait: for a log line naming the error and the delay. */
  onRetry?: (error: unknown, retry: number, delayMs: number) => void;
  /** Stops waiting and retrying once aborted (the attempt under way runs to its end). */
  signal?: AbortSignal;
}

/** What retrying came to: the value, or the last error and why the retries stopped. */
export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: unknown; attempts: number; stopped: "exhausted" | "not-retryable" | "aborted" };

/** Runs `work` until it succeeds, an error is not retryable, the attempts run out or `signal` aborts. */
export async function retry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions): Promise<RetryOutcome<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await work(attempt), attempts: attempt };
    } catch (error) {
      if (options.retryable && !options.retryable(error)) return { ok: false, error, attempts: attempt, stopped: "not-retryable" };
      if (attempt >= options.attempts) return { ok: false, error, attempts: attempt, stopped: "exhausted" };
      if (options.signal?.aborted) return { ok: false, error, attempts: attempt, stopped: "aborted" };
      const delayMs = backoffDelay(options.backoff, attempt);
      options.onRetry?.(error, attempt, delayMs);
      await wait(delayMs, options.signal);
      if (options.signal?.aborted) return { ok: false, error, attempts: attempt, stopped: "aborted" };
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: the loop reads the signal itself). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
