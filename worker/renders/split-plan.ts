// Whether and how a render is split across nodes, from its plan and the nodes free to take segments. Pure.
//
// A split pays off only when the nodes exist to run it: the room splits a render when the farm model says it ends
// sooner split than whole, given how many nodes are free now (worker/renders/farm/free-nodes.ts says what is
// counted) and the measured costs (bench/README.md, "Segments"):
//   whole, on the planning node:   F·t
//   k segments on k free nodes:    o + (F/k)·t + J
// where F is the frames, t a node's seconds per frame at the render's size, o the fixed cost of a segment (claim,
// browser launches, composition load, upload) and J the join (download, concatenation without re-encoding, upload),
// which grows with the video's length. Within one wave (k ≤ free nodes) more segments always finish sooner, so the
// count is the free nodes, cut so that every segment captures for at least as long as its fixed cost (at most half
// a node's time on a segment is overhead; past that the farm burns nodes for little), and at most MAX_SEGMENTS.
// GIF is never split (its palette pass needs every frame), nor a png-sequence (its frames are files zipped by the
// node that took them, capped in length). Segments are equal to within one frame and cover [0, frames) exactly.
// onFixedSegments moves the cuts onto the fixed segments' boundaries (core/render/segment-plan.ts); the room does
// not apply it yet. The settings are parsed with the rest of the configuration (worker/config/settings.ts).
import type { RenderPlan, SegmentRange } from "../../core/protocol/render-plan.ts";
import type { Format } from "../../core/render/render-options.ts";
import type { Config } from "../config/config-types.ts";
import { nearestSegmentStart } from "../../core/render/segment-plan.ts";

/** The farm's measured costs, in seconds, and the segment cap. */
export interface FarmModel {
  /** o: a segment's fixed cost on a node that is already running. */
  segmentOverheadS: number;
  /** Frames one node captures and encodes per second at 1920x1080. */
  framesPerSecond1080p: number;
  /** The join's seconds per second of video. */
  joinPerVideoSecondS: number;
  maxSegments: number;
}

type ModelSettings = Pick<Config, "SEGMENT_OVERHEAD_MS" | "NODE_FRAMES_PER_SECOND" | "JOIN_MS_PER_VIDEO_SECOND" | "MAX_SEGMENTS">;

export function farmModel(config: ModelSettings): FarmModel {
  return {
    segmentOverheadS: config.SEGMENT_OVERHEAD_MS / 1000,
    framesPerSecond1080p: config.NODE_FRAMES_PER_SECOND,
    joinPerVideoSecondS: config.JOIN_MS_PER_VIDEO_SECOND / 1000,
    maxSegments: config.MAX_SEGMENTS,
  };
}

const PIXELS_1080P = 1920 * 1080;
/**
 * A smaller frame is faster to capture, but not in proportion: the page's seek, the screenshot's round trip and the
 * encoder's per-frame work stay. Measured on the development machine (one browser, 150 frames, draft): a 320x180
 * frame (1/36 of 1080p's pixels) took about 37 ms, a 1920x1080 frame about 530 ms, some 7 %; so time per frame is
 * taken as proportional to the pixels, never below that share.
 */
export const SMALLEST_FRAME_SHARE = 0.07;

/** t: one node's seconds per frame at the plan's size. */
export function secondsPerFrame(plan: Pick<RenderPlan, "width" | "height">, model: FarmModel): number {
  const share = Math.max(SMALLEST_FRAME_SHARE, (plan.width * plan.height) / PIXELS_1080P);
  return share / model.framesPerSecond1080p;
}

export type SplitInput = Pick<RenderPlan, "frames" | "width" | "height" | "durationSeconds"> & { format: Format; freeNodes: number };

/** The decision and the estimates behind it (the render's log shows them). */
export interface SplitDecision {
  segments: SegmentRange[];
  /** Estimated seconds to finish whole on the planning node. */
  wholeS: number;
  /** Estimated seconds to finish split as decided (equal to wholeS when kept whole). */
  splitS: number;
  /** Why it is kept whole, when it is. */
  whole?: "gif" | "png-sequence" | "one free node" | "too short" | "not sooner";
}

/** Estimated seconds for k segments on k free nodes: one wave, then the join. */
export function splitSeconds(input: SplitInput, k: number, model: FarmModel): number {
  const t = secondsPerFrame(input, model);
  return model.segmentOverheadS + Math.ceil(input.frames / k) * t + input.durationSeconds * model.joinPerVideoSecondS;
}

export function decideSplit(input: SplitInput, model: FarmModel): SplitDecision {
  const t = secondsPerFrame(input, model);
  const wholeS = input.frames * t;
  const kept = (why: NonNullable<SplitDecision["whole"]>): SplitDecision => ({ segments: [{ index: 0, fromFrame: 0, toFrame: input.frames }], wholeS, splitS: wholeS, whole: why });
  if (input.format === "gif" || input.format === "png-sequence") return kept(input.format);
  const free = Math.max(1, Math.floor(input.freeNodes));
  if (free < 2) return kept("one free node");
  // Every segment captures for at least its fixed cost: frames per segment ≥ o / t.
  const mostByLength = Math.floor(wholeS / Math.max(model.segmentOverheadS, t));
  const count = Math.min(free, model.maxSegments, mostByLength);
  if (count < 2) return kept("too short");
  const splitS = splitSeconds(input, count, model);
  if (splitS >= wholeS) return kept("not sooner");
  return { segments: frameRanges(input.frames, count), wholeS, splitS };
}

/**
 * The split's inner cuts moved to the nearest fixed-segment boundary of the composition's clock
 * (core/render/segment-plan.ts), so each node encodes whole fixed segments, the same bytes a render on one node
 * makes; a range that this leaves empty is dropped. The output's frames are [0, frames), the composition's
 * firstFrame + that.
 */
export function onFixedSegments(ranges: SegmentRange[], fps: RenderPlan["fps"], firstFrame: number): SegmentRange[] {
  const frames = ranges.at(-1)!.toFrame;
  const cuts = ranges.slice(1).map((range) => Math.min(frames, Math.max(0, nearestSegmentStart(firstFrame + range.fromFrame, fps) - firstFrame)));
  const bounds = [0, ...cuts, frames].filter((cut, i, all) => i === 0 || cut > all[i - 1]!);
  return bounds.slice(1).map((toFrame, index) => ({ index, fromFrame: bounds[index]!, toFrame }));
}

/** `count` ranges covering [0, frames) exactly, equal to within one frame. */
export function frameRanges(frames: number, count: number): SegmentRange[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    fromFrame: Math.floor((frames * index) / count),
    toFrame: Math.floor((frames * (index + 1)) / count),
  }));
}
