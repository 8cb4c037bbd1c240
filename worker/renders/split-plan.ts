// How a render is split across nodes, from its plan. Pure. A render of at most SEGMENT_MIN_FRAMES (default: 20 s of
// video at the render's rate) is one segment, rendered whole as before; GIF is never split (its palette pass needs
// every frame), nor a png-sequence (its frames are files zipped by the node that took them, capped in length). Longer renders become segments of about SEGMENT_TARGET_FRAMES (default 10 s of video), equal to
// within one frame, covering [0, frames) exactly, and never more than MAX_SEGMENTS of them (default 64, at least 2):
// past that the segments grow, so one render cannot flood the queue with jobs. The settings are parsed with the rest
// of the configuration (worker/config/settings.ts).
import type { RenderPlan, SegmentRange } from "../../core/protocol/render-plan.ts";
import type { Format } from "../../core/render/render-options.ts";
import type { Config } from "../config/parse-config.ts";

export interface SplitThresholds {
  minFrames: number;
  targetFrames: number;
  maxSegments: number;
}

type SplitSettings = Pick<Config, "SEGMENT_MIN_FRAMES" | "SEGMENT_TARGET_FRAMES" | "MAX_SEGMENTS">;

/** The thresholds for a plan's rate: the settings (frame counts) or 20 s and 10 s of video, and the segment cap. */
export function splitThresholds(config: SplitSettings, plan: Pick<RenderPlan, "fps">): SplitThresholds {
  const perSecond = plan.fps.num / plan.fps.den;
  return {
    minFrames: config.SEGMENT_MIN_FRAMES ?? Math.round(20 * perSecond),
    targetFrames: config.SEGMENT_TARGET_FRAMES ?? Math.round(10 * perSecond),
    maxSegments: config.MAX_SEGMENTS,
  };
}

export function splitPlan(frames: number, format: Format, t: SplitThresholds): SegmentRange[] {
  if (format === "gif" || format === "png-sequence" || frames <= t.minFrames) return [{ index: 0, fromFrame: 0, toFrame: frames }];
  const count = Math.min(t.maxSegments, Math.max(2, Math.round(frames / Math.max(1, t.targetFrames))));
  return Array.from({ length: count }, (_, index) => ({
    index,
    fromFrame: Math.floor((frames * index) / count),
    toFrame: Math.floor((frames * (index + 1)) / count),
  }));
}
