// A render split across the farm's nodes, as pure transitions (the whole render's are render-transitions.ts, which
// hands over here when a plan splits the render and when a split render's node reports progress): the split itself
// (one segment job per frame range), a segment's progress summed into the render's, a segment or the join taken, a
// segment done (the last one queues the join) or failed. Each returns the next render and the effects the room
// performs (render-step.ts); tested on plain values in test/node/render-life.test.ts.
//
//   rendering ──plan: more than one range──▶ split ──each segment taken, done──▶ join queued ──join done──▶ ended
//   a segment that failed (said, or no file) ──▶ ended (failed); a lost lease on a segment: render-transitions.ts
import { sumProgress, type ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { nodeRenderOptions } from "../../../core/render/render-options.ts";
import { joinJobId, segmentJobId, type RoomSegment, type RunningRender, type SplitRender } from "../state.ts";
import { copySegments, telling, withAfter, withLines, type QueuedJob, type Step } from "./render-step.ts";

/** The render job's work (the plan) is done and the render goes on as segments, one queued job per range. */
export function splitInto(render: RunningRender, plan: RenderPlan, ranges: readonly SegmentRange[], line: string): Step<SplitRender> {
  const { node: _node, attempt: _attempt, ...rest } = render;
  const segments: RoomSegment[] = ranges.map((r) => ({ ...r, node: null, attempts: 0, status: "queued" }));
  const split: SplitRender = { ...rest, phase: "split", plan, segments };
  const jobs: QueuedJob[] = ranges.map((r) => ({
    id: segmentJobId(render.id, r.index),
    kind: "segment",
    options: { renderId: render.id, index: r.index, fromFrame: r.fromFrame, toFrame: r.toFrame, plan, render: nodeRenderOptions(render.options) },
  }));
  const step = telling(split, [line], [{ do: "endJob", jobId: render.id, result: { segments: ranges.length } }, { do: "queueJobs", jobs }]);
  return withAfter(step, [{ do: "announce", kind: "segment" }, { do: "wakeNodes" }]);
}

/** A progress post on a segment or the join: its lines prefixed with it, and its frames summed over the segments
 * (done segments count whole). No event: the progress stays. */
export function segmentProgressed(render: SplitRender, segment: number | "join", lines: string[], event?: ProgressEvent): Step<SplitRender> {
  const prefixed = lines.map((l) => `${segment === "join" ? "join" : `segment ${segment}`}: ${l}`);
  if (!event) return withLines(render, prefixed);
  const segments = copySegments(render.segments);
  const part = segment === "join" ? undefined : segments[segment];
  if (part) part.progress = withinSegment(event, part.toFrame - part.fromFrame);
  const parts = segments
    .map((s) => (s.status === "done" ? { frame: s.toFrame - s.fromFrame, total: s.toFrame - s.fromFrame, fps: null, stage: "capturing" as const, etaSeconds: 0, reused: s.progress?.reused } : s.progress))
    .filter((p): p is ProgressEvent => !!p);
  // No segment has reported frames yet: the progress shown stays as it was.
  const progress = sumProgress(parts, render.plan?.frames ?? 0) ?? undefined;
  return withLines({ ...render, segments }, prefixed, progress);
}

/** A segment's report as the render counts it: no more frames done (or reused) than the segment has, whatever its node says. */
function withinSegment(event: ProgressEvent, frames: number): ProgressEvent {
  const frame = Math.min(event.frame, frames);
  return { ...event, frame, ...(event.reused === undefined ? {} : { reused: Math.min(event.reused, frame) }) };
}

/** A node took a segment or the join. Null when the segment does not exist. */
export function segmentTaken(render: SplitRender, segment: number | "join", nodeName: string, attempt: number, maxAttempts: number): Step<SplitRender> | null {
  if (segment === "join") {
    const retry = attempt > 1 ? ` (attempt ${attempt} of ${maxAttempts})` : "";
    return telling(render, [`join: node ${nodeName} joins the ${render.segments.length} segments${retry}`]);
  }
  const segments = copySegments(render.segments);
  const part = segments[segment];
  if (!part) return null;
  Object.assign(part, { node: nodeName, attempts: attempt, status: "rendering" } satisfies Partial<RoomSegment>);
  const line = attempt === 1
    ? `segment ${segment}: node ${nodeName} renders frames ${part.fromFrame}-${part.toFrame - 1}`
    : `segment ${segment}: node ${nodeName} took the segment over (attempt ${attempt} of ${maxAttempts})`;
  return telling({ ...render, segments }, [line]);
}

/**
 * A segment's node reported its end; `uploaded`: whether its file is there. A failure (said, or no file) fails
 * the render; the last segment done queues the join.
 */
export function segmentCompleted(render: SplitRender, index: number, report: { ok: true; uploaded: boolean } | { ok: false; error?: string }): Step<SplitRender> {
  const segments = copySegments(render.segments);
  const part = segments[index]!;
  if (!report.ok || !report.uploaded) {
    part.status = "failed";
    const error = report.ok
      ? `segment ${index}: the render node reported success but uploaded no file`
      : `segment ${index} failed on node ${part.node ?? "?"}: ${report.error ?? "no message"}`;
    return { render: { ...render, segments }, effects: [{ do: "end", outcome: { ok: false, error } }] };
  }
  part.status = "done";
  part.progress = null;
  const done = segments.filter((s) => s.status === "done").length;
  const line = `segment ${index}: done on node ${part.node ?? "?"} (${done} of ${segments.length})`;
  const step = telling({ ...render, segments }, [line], [{ do: "endJob", jobId: segmentJobId(render.id, index) }]);
  if (done < segments.length) return step;
  const join: QueuedJob = { id: joinJobId(render.id), kind: "join", options: { renderId: render.id, segments: segments.map((s) => s.index), plan: render.plan, render: nodeRenderOptions(render.options) } };
  const after = telling(step.render, ["all segments done; queued the join"], [{ do: "queueJobs", jobs: [join] }]);
  return { render: after.render, effects: [...step.effects, ...after.effects, { do: "announce", kind: "join" }] };
}
