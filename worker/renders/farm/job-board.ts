// The JobBoard Durable Object: where render nodes wait for work. A claim that finds the queue empty parks here and
// is answered the moment work of one of its kinds is queued (or put back after a lost lease), instead of polling
// D1. One instance for the whole Worker: it holds only in-memory waiters and a counter per kind, so a restart
// (eviction) loses nothing a claim cannot recover: the claim loop re-reads D1 at least every SAFETY_RECHECK_MS.
import { DurableObject } from "cloudflare:workers";
import type { JobKind } from "../../../core/protocol/job-kinds.ts";
import type { Env } from "../../env.ts";
import { logEvent } from "../../http/log.ts";

/** Counters of announced work per kind, as a claim saw them before it looked at the queue. */
export type WorkMarks = Partial<Record<JobKind, number>>;

interface Waiter {
  /** Which node waits (its key's id and the process's nodeId): one node's overlapping waits count once. */
  node: string;
  kinds: readonly JobKind[];
  resolve: (woken: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

// Types env.ts's JobBoard namespace (durable-object-classes.ts says why this way round).
declare module "../../durable-object-classes.ts" {
  interface DurableObjectClasses {
    JobBoard: JobBoard;
  }
}

export class JobBoard extends DurableObject<Env> {
  private readonly marks = new Map<JobKind, number>();
  private readonly waiters = new Set<Waiter>();

  /** The counters now; a claim reads them before looking at D1, so work announced in between is not missed. */
  async marksOf(kinds: readonly JobKind[]): Promise<WorkMarks> {
    return Object.fromEntries(kinds.map((k) => [k, this.marks.get(k) ?? 0]));
  }

  /**
   * How many distinct nodes wait here now for work of `kind`: the nodes known to be idle. A lower bound: a node
   * between two waits (reading the queue, at most a few milliseconds every SAFETY_RECHECK_MS) is not counted. A node
   * killed while it waited is counted until its claim's long poll ends or work of its kinds is announced: the wake-up
   * takes every waiter off the board, and a woken claim only answers "claim again" (it never takes the job), so a
   * dead one is gone from here by the time a render queued after it is planned.
   */
  async idleNodes(kind: JobKind): Promise<number> {
    return new Set([...this.waiters].filter((w) => w.kinds.includes(kind)).map((w) => w.node)).size;
  }

  /** Resolves true as soon as work of one of `kinds` is announced after `seen`, false after `timeoutMs`. */
  async waitForWork(kinds: readonly JobKind[], seen: WorkMarks, timeoutMs: number, node: string): Promise<boolean> {
    if (kinds.some((k) => (this.marks.get(k) ?? 0) > (seen[k] ?? 0))) return true;
    if (timeoutMs <= 0) return false;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        node,
        kinds,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Work of `kind` was queued: wake the nodes waiting for that kind. */
  async announce(kind: JobKind): Promise<number> {
    this.marks.set(kind, (this.marks.get(kind) ?? 0) + 1);
    let woken = 0;
    for (const waiter of this.waiters) {
      if (!waiter.kinds.includes(kind)) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(true);
      woken++;
    }
    return woken;
  }
}

export function jobBoard(env: Env) {
  return env.JOB_BOARD.get(env.JOB_BOARD.idFromName("all"));
}

/** Tells waiting nodes that work of `kind` exists. A failure here only delays the claim to its next D1 re-check. */
export async function announceWork(env: Env, kind: JobKind): Promise<void> {
  try {
    await jobBoard(env).announce(kind);
  } catch (error) {
    // The claim loop's safety re-check finds the job anyway, a few seconds later.
    logEvent("warn", "jobs.announce_failed", { kind, error, answer: "found by the claim's re-check" });
  }
}
