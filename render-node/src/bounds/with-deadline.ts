// A bound on one await: a composition is a hostile program, and any call into its page (or an ffmpeg fed its
// media) may never return. The bound wraps the existing await (one timer, no extra round trip).

/** A stage that overran its bound; its message names the stage (and frame) and the bound, and is shown as is. */
export class StageTimeout extends Error {
  override name = "StageTimeout";
}

/** "10 s", "2.5 s": a bound as people read it. */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(1))} s`;
}

/**
 * Resolves or rejects like `promise`, or rejects with StageTimeout(message) after `ms`. `message` may be a function,
 * so the hot path (one call per frame) builds no string unless the bound is hit. The late outcome of `promise`
 * is swallowed: the caller has moved on (and killed the browser).
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, message: string | (() => string)): Promise<T> {
  return raceTimer(promise, (reject) => {
    const timer = setTimeout(() => reject(new StageTimeout(typeof message === "function" ? message() : message)), ms);
    return () => clearTimeout(timer);
  });
}

/**
 * Settles like `promise` unless the timers `arm` starts reject first; `arm` returns what stops them, called once
 * `promise` settles.
 */
export function raceTimer<T>(promise: Promise<T>, arm: (reject: (error: unknown) => void) => () => void): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const stop = arm(reject);
    promise.then(
      (value) => {
        stop();
        resolvePromise(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
