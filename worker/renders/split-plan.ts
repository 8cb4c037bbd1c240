// How a render is split across nodes, from its plan. Pure. A render of at most SEGMENT_MIN_FRAMES (default: 20 s of
// video at the render's rate) is one segment, rendered whole as before; GIF is never split (its palette pass needs
// every frame). Longer renders become segments of about SEGMENT_TARGET_FRAMES (default 10 s of video), equal to
// within one frame, covering [0, frames) exactly, and never more than MAX_SEGMENTS of them (default 64): past that
// the segments grow, so one render cannot flood the queue with jobs.
import type { RenderPlan, SegmentRange } from "../../core/protocol/render-plan.ts";
import type { Format } from "../../core/render/render-options.ts";

export interface SplitThresholds {
  minFrames: number;
  targetFrames: number;
  maxSegments: number;
}

export const DEFAULT_MAX_SEGMENTS = 64;

function positiveInt(value: string | undefined): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

type SplitEnv = { SEGMENT_MIN_FRAMES?: string | undefined; SEGMENT_TARGET_FRAMES?: string | undefined; MAX_SEGMENTS?: string | undefined };

/** The thresholds for a plan's rate: env overrides (frame counts) or 20 s and 10 s of video, and the segment cap. */
export function splitThresholds(env: SplitEnv, plan: Pick<RenderPlan, "fps">): SplitThresholds {
  const perSecond = plan.fps.num / plan.fps.den;
  return {
    minFrames: positiveInt(env.SEGMENT_MIN_FRAMES) ?? Math.round(20 * perSecond),
    targetFrames: positiveInt(env.SEGMENT_TARGET_FRAMES) ?? Math.round(10 * perSecond),
    maxSegments: Math.max(2, positiveInt(env.MAX_SEGMENTS) ?? DEFAULT_MAX_SEGMENTS),
  };
}

export function splitPlan(frames: number, format: Format, t: SplitThresholds): SegmentRange[] {
  if (format === "gif" || frames <= t.minFrames) return [{ index: 0, fromFrame: 0, toFrame: frames }];
  const count = Math.min(t.maxSegments, Math.max(2, Math.round(frames / Math.max(1, t.targetFrames))));
  return Array.from({ length: count }, (_, index) => ({
    index,
    fromFrame: Math.floor((frames * index) / count),
    toFrame: Math.floor((frames * (index + 1)) / count),
  }));
}
