// The kinds of work a render node can claim. `render` is a whole render (or its plan, when the room splits it),
// `segment` a frame range of a split render, `join` the last step of a split render. Snapshots and checks are
// browser work a person waits for, so they go before any render work (see worker/renders/farm/queue.ts).
import * as z from "zod";

export const JOB_KINDS = ["render", "segment", "join", "snapshot", "check", "preview"] as const;
export const JobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKindSchema>;

/** Job kinds that belong to a render (the room owns their state). */
export const RENDER_JOB_KINDS: readonly JobKind[] = ["render", "segment", "join"];

export function isRenderWork(kind: string): boolean {
  return (RENDER_JOB_KINDS as readonly string[]).includes(kind);
}
