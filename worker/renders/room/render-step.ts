// What every transition of a render's life returns (render-transitions.ts for the whole render, split-transitions.ts
// for a render split across nodes): a `Step`, the render that follows and the effects the room then performs in order
// (apply-step.ts). The few helpers both kinds of transition build their steps with live here, so neither file imports
// the other's internals. Pure: no storage, no D1, no streams.
import type { LiveRender, Outcome, Progress, RoomRender, RoomSegment } from "../state.ts";

/** Work the room queues for nodes. */
export interface QueuedJob {
  id: string;
  kind: "segment" | "join";
  options: unknown;
}

/** What the room does after storing the render a transition returned, in this order. */
export type Effect =
  /** Tell these log lines (already applied to the render) to its log and streams. */
  | { do: "tell"; lines: string[] }
  /** Write the render's D1 row as it now is (renders/projection.ts, the one projector). */
  | { do: "project" }
  /** Put a job whose lease lapsed back in the queue, or, with `attempt`, the job its holder gives back in that
   * attempt (no lapse needed). Done FIRST, before the render is stored: when another hand got there first (the
   * node's late post renewed it, a second look), the whole transition is dropped. */
  | { do: "requeueJob"; jobId: string; nodeId: string | null; why: string; attempt?: number }
  /** A job's work is done (the plan of a split render, a segment). */
  | { do: "endJob"; jobId: string; result?: unknown }
  | { do: "queueJobs"; jobs: QueuedJob[] }
  /** Wake the nodes long-polling for this kind of work. */
  | { do: "announce"; kind: "render" | "segment" | "join" }
  /** Start more container nodes (production). */
  | { do: "wakeNodes" }
  /** End the render with this outcome (`ended`, then the room's end: D1 rows, streams, waiters, webhook). */
  | { do: "end"; outcome: Outcome };

export interface Step<R extends RoomRender = RoomRender> {
  render: R;
  effects: Effect[];
}

/** The room's settings a transition reads. */
export interface Limits {
  maxAttempts: number;
  leaseMs: number;
  maxRenderMs: number;
  watchdogMs: number;
}

/** `render` is the room's render `renderId` and still in progress: the only one a node's report may change. */
export function isLive(render: RoomRender | null, renderId: string): render is LiveRender {
  return render !== null && render.id === renderId && render.phase !== "ended";
}

/** The segments copied, so a transition changes its own and leaves the render it was given as it was. */
export const copySegments = (segments: RoomSegment[]) => segments.map((s) => ({ ...s }));

/** `lines` told: the last becomes the render's last line. */
export function telling<R extends RoomRender>(render: R, lines: string[], effects: Effect[] = []): Step<R> {
  const last = lines.at(-1);
  return { render: last === undefined ? render : { ...render, lastLine: last }, effects: [...effects, { do: "tell", lines }] };
}

/** `step` with more effects after its own. */
export const withAfter = <R extends RoomRender>(step: Step<R>, after: Effect[]): Step<R> => ({ render: step.render, effects: [...step.effects, ...after] });

/** Log lines from the node (or the Worker), and new progress when given. */
export function withLines<R extends LiveRender>(render: R, lines: string[], progress?: Progress | null): Step<R> {
  return telling(progress === undefined ? render : { ...render, progress }, lines);
}
