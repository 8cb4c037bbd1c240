// Every bound on an await of the node: a composition is a hostile program, and any call into its page (or an ffmpeg
// fed its media) may never return. withDeadline wraps the existing await (one timer, no extra round trip);
// withPacedDeadline is the same bound running at the machine's pace (below).
//
// Slow is not hung (issue 24, item 6): a stage bound that runs on the machine's own pace. A fixed 10 s per frame
// failed renders on a loaded machine although every stage was progressing. Here the bound's time passes at the
// rate the stage's processes actually get CPU: on an idle machine (a core for the browser) a spinning page fails at
// the bound as before; on a loaded one (the browser gets a third of a core) the same bound lasts three times longer.
// A stage whose processes do nothing at all fails at the bound: it waits on something that never comes. Past a
// ceiling the stage fails however slow the machine is. The CPU is read only when the bound's timer fires (never per
// frame); where it cannot be read (not Linux) the bound is the fixed one.
import { processTreeCpuMs } from "./process-tree-cpu.ts";

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


export interface PaceProbe {
  /** CPU milliseconds used so far by the processes doing the stage (all cores summed); null when unknown. */
  cpuMs(): number | null;
  /** Who does the work, for the message: "its browser", "ffmpeg". */
  who: string;
  /**
   * True for a composition's page: a stage that keeps a core busy for the whole bound is hung (a script that never
   * ends). False for ffmpeg: busy means working through its queue, so only idleness or the ceiling fails it.
   */
  busyIsHung: boolean;
}

export interface PacedBound {
  /** The bound at full pace (a core for the stage's processes). */
  ms: number;
  /** Fails at this wall time whatever the pace. */
  ceilingMs: number;
  probe: PaceProbe | null;
}

/**
 * CPU of the process tree at `pid` plus this node's own process. The stages also wait on the node: a page on its
 * project server and request interception, an ffmpeg on the frames the node writes to it; on a loaded machine the
 * node answers slowly, and a page or ffmpeg idle while the node works is waiting, not hung.
 */
function withNode(pid: number | undefined): () => number | null {
  return () => {
    const tree = processTreeCpuMs(pid);
    if (tree === null) return null;
    const own = process.cpuUsage();
    return tree + (own.user + own.system) / 1000;
  };
}

/** A composition page's bound: its browser (and the node) measured, busy means hung, ten times `ms` at the most. */
export function pageBound(ms: number, browserPid: number | undefined): PacedBound {
  return { ms, ceilingMs: 10 * ms, probe: { cpuMs: withNode(browserPid), who: "its browser", busyIsHung: true } };
}

/** An ffmpeg's bound: busy is working, so only idleness (of ffmpeg and the node) or `ceilingMs` fails it. */
export function ffmpegBound(ms: number, ceilingMs: number, pid: number | undefined): PacedBound {
  return { ms, ceilingMs: Math.max(ms, ceilingMs), probe: { cpuMs: withNode(pid), who: "ffmpeg", busyIsHung: false } };
}

/** Below this share of one core, a stage's processes are idle (Chromium's own timers use less). */
export const IDLE_SHARE = 0.02;
/**
 * Idle this long on end (consecutive probe windows), a stage fails as idle. One quarter-second window is not enough:
 * a process starved on a loaded machine can get nothing for that long (CI, stop 27).
 */
export const IDLE_SPAN_MS = 1000;

export interface PaceState {
  /** Bound time used so far, at the stage's pace. */
  pacedMs: number;
  wallMs: number;
  /** Wall time of the current run of idle windows (0 after a busy one). */
  idleMs: number;
}

export type PaceVerdict =
  | { kind: "wait"; state: PaceState }
  | { kind: "fail"; reason: "idle" | "busy" | "ceiling"; state: PaceState };

/**
 * One look at a stage that outlived its bound's first stretch: `window` is the last probe window (wall time and the
 * CPU its processes used meanwhile). Pure.
 */
export function judgePace(state: PaceState, window: { wallMs: number; cpuMs: number }, bound: Pick<PacedBound, "ms" | "ceilingMs">, busyIsHung: boolean): PaceVerdict {
  const share = window.wallMs > 0 ? window.cpuMs / window.wallMs : 0;
  const idle = share < IDLE_SHARE;
  const next = {
    pacedMs: state.pacedMs + window.wallMs * Math.min(1, share),
    wallMs: state.wallMs + window.wallMs,
    idleMs: idle ? state.idleMs + window.wallMs : 0,
  };
  if (next.idleMs >= IDLE_SPAN_MS) return { kind: "fail", reason: "idle", state: next };
  if (busyIsHung && next.pacedMs >= bound.ms) return { kind: "fail", reason: "busy", state: next };
  if (next.wallMs >= bound.ceilingMs) return { kind: "fail", reason: "ceiling", state: next };
  return { kind: "wait", state: next };
}

/** What the message adds to "… did not finish seeking in 10 s" when the bound ran on the machine's pace. */
export function paceDetail(verdict: Extract<PaceVerdict, { kind: "fail" }>, who: string): string {
  const share = Math.round((100 * verdict.state.pacedMs) / Math.max(1, verdict.state.wallMs));
  const clock = seconds(Math.round(verdict.state.wallMs / 100) * 100);
  if (verdict.reason === "idle") return ` (${who} was idle: waiting on something that never came)`;
  if (verdict.reason === "ceiling") return ` (${clock} on the clock, the most any machine is given; ${who} got ${share}% of a core)`;
  // Busy at about full pace: the plain message says it all.
  return share >= 90 ? "" : ` (at this machine's pace: ${clock} on the clock, ${who} got ${share}% of a core)`;
}

/**
 * Resolves or rejects like `promise`, or rejects with StageTimeout(message() + detail) once the bound has run out at
 * the stage's pace (see judgePace). `message` is built only when the bound trips.
 */
export function withPacedDeadline<T>(promise: Promise<T>, bound: PacedBound, message: () => string): Promise<T> {
  return raceTimer(promise, (reject) => {
    const probe = bound.probe;
    // Probe windows: short enough to decide soon after the bound, long enough to see a starved process get a slice.
    // A quarter second at least: on a machine with dozens of runnable threads a process may wait 100 ms for a slice.
    const windowMs = Math.min(1000, Math.max(250, bound.ms / 5));
    let state: PaceState = { pacedMs: 0, wallMs: 0, idleMs: 0 };
    let last: { at: number; cpu: number } | null = null;
    let firstWindow = true;
    const trip = (detail: string) => reject(new StageTimeout(message() + detail));
    const look = () => {
      const now = performance.now();
      const cpu = probe?.cpuMs() ?? null;
      if (!probe || cpu === null) return trip("");
      if (last === null) {
        // The bound's first stretch is over; from here on, each window counts at the pace the stage gets. The first
        // stretch counts at the pace of the first window (decided at the next look).
        state = { pacedMs: 0, wallMs: bound.ms, idleMs: 0 };
        last = { at: now, cpu };
        timer = setTimeout(look, windowMs);
        return;
      }
      const window = { wallMs: now - last.at, cpuMs: cpu - last.cpu };
      if (firstWindow) {
        firstWindow = false;
        const share = Math.min(1, window.wallMs > 0 ? window.cpuMs / window.wallMs : 0);
        state = { ...state, pacedMs: bound.ms * share };
      }
      const verdict = judgePace(state, window, bound, probe.busyIsHung);
      if (verdict.kind === "fail") return trip(paceDetail(verdict, probe.who));
      state = verdict.state;
      last = { at: now, cpu };
      timer = setTimeout(look, windowMs);
    };
    let timer = setTimeout(look, bound.ms);
    return () => clearTimeout(timer);
  });
}
