// Which of a composition's own scripts are still busy: animation frames, timeouts and intervals it asked for, and
// whether any of them ran since the last look. Frame reuse (still-frame.ts) reads it: a callback that is waiting
// or has just run may have drawn something the timeline does not know about, so the frame is captured.
// GSAP's own ticker is not composition code: every timeline is paused and sought by the runtime, so its frames
// change nothing (an unpaused GSAP animation is caught by timeline-activity.ts instead).
import { matchGsapUrl } from "../../../core/composition/match-gsap-url.ts";

export interface ScriptActivity {
  /** Why composition code may change the picture now, or null when none waits and none ran since the last call. */
  take(): string | null;
}

type Callback = (...args: unknown[]) => unknown;

const URL_IN_STACK = /(https?:\/\/[^\s()]+?):\d+:\d+/g;

/**
 * Wraps requestAnimationFrame, setTimeout and setInterval before any composition script runs (the runtime is the
 * page's first script). `gsapBase`: where sub-compositions load GSAP from, besides the CDN URLs the node answers.
 */
export function watchScriptActivity(runtimeUrl: string, gsapBase: string | null): ScriptActivity {
  const base = gsapBase ? new URL(gsapBase, document.baseURI).href : null;
  const frames = new Set<number>();
  // Timeouts waiting, by id, with their delay (for the reason given); idle callbacks under their negated id.
  const timeouts = new Map<number, number>();
  const intervals = new Set<number>();
  let ran = false;

  // The script that asked: the first URL on the stack that is not the runtime's. GSAP's ticker is recognised by
  // its file; anything else, or a stack that names no file, counts as the composition's (captured, never guessed).
  const fromGsap = (): boolean => {
    const stack = new Error().stack || "";
    for (const match of stack.matchAll(URL_IN_STACK)) {
      const url = match[1]!;
      if (url === runtimeUrl) continue;
      return matchGsapUrl(url) !== null || (base !== null && url.startsWith(base));
    }
    return false;
  };
  // A timer given a string of code is passed on untouched (the page's CSP decides whether it may run), so when it
  // runs cannot be seen: from then on no frame is reused.
  let untracked = false;
  const run = (handler: Callback, args: unknown[]) => {
    ran = true;
    handler.apply(window, args);
  };

  const raf = window.requestAnimationFrame.bind(window);
  const caf = window.cancelAnimationFrame.bind(window);
  const setT = window.setTimeout.bind(window);
  const clearT = window.clearTimeout.bind(window);
  const setI = window.setInterval.bind(window);
  const clearI = window.clearInterval.bind(window);

  window.requestAnimationFrame = (callback: FrameRequestCallback): number => {
    if (fromGsap()) return raf(callback);
    const id = raf((time) => {
      frames.delete(id);
      run(callback as Callback, [time]);
    });
    frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = (id: number): void => {
    frames.delete(id);
    caf(id);
  };
  (window as { setTimeout: unknown }).setTimeout = (handler: unknown, ms?: number, ...args: unknown[]): number => {
    if (typeof handler !== "function") untracked = true;
    if (typeof handler !== "function" || fromGsap()) return setT(handler as TimerHandler, ms, ...args);
    const id = setT(() => {
      timeouts.delete(id);
      run(handler as Callback, args);
    }, ms);
    timeouts.set(id, Number(ms) || 0);
    return id;
  };
  (window as { setInterval: unknown }).setInterval = (handler: unknown, ms?: number, ...args: unknown[]): number => {
    if (typeof handler !== "function") untracked = true;
    if (typeof handler !== "function" || fromGsap()) return setI(handler as TimerHandler, ms, ...args);
    const id = setI(() => run(handler as Callback, args), ms);
    intervals.add(id);
    return id;
  };
  // Browsers let either clear function clear either kind of timer.
  const clear = (id: number | undefined) => {
    if (id === undefined) return;
    timeouts.delete(id);
    intervals.delete(id);
  };
  window.clearTimeout = (id?: number): void => {
    clear(id);
    clearT(id);
  };
  window.clearInterval = (id?: number): void => {
    clear(id);
    clearI(id);
  };

  // Idle callbacks run whenever Chromium is idle: waiting or run, they count like a timeout.
  if (typeof window.requestIdleCallback === "function") {
    const ric = window.requestIdleCallback.bind(window);
    const cic = window.cancelIdleCallback.bind(window);
    const idle = new Set<number>();
    window.requestIdleCallback = (callback: IdleRequestCallback, options?: IdleRequestOptions): number => {
      const id = ric((deadline) => {
        idle.delete(id);
        timeouts.delete(-id);
        run(callback as Callback, [deadline]);
      }, options);
      idle.add(id);
      // Kept with the timeouts under a negative key, so a waiting one keeps frames from being reused.
      timeouts.set(-id, Number(options?.timeout) || 0);
      return id;
    };
    window.cancelIdleCallback = (id: number): void => {
      idle.delete(id);
      timeouts.delete(-id);
      cic(id);
    };
  }

  return {
    take() {
      const reason = untracked ? "a timer was given code as a string (when it runs cannot be seen)"
        : frames.size ? "an animation frame callback is waiting"
        : intervals.size ? "an interval timer is running"
        : timeouts.size ? `a timeout is waiting (${[...timeouts.values()].join(", ")} ms)`
        : ran ? "a timer or animation frame callback ran"
        : null;
      ran = false;
      return reason;
    },
  };
}
