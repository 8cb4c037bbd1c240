// The capture stage: a frame range of the planned composition captured by as many browsers as it is worth, taking
// its fixed segments in order, each segment into its own encoder (capture-chunks.ts). Before the first frame: the spare browsers the
// plan started are taken (more are started if needed), every <video> is decoded once into the frames the page
// shows, and each page is readied for capture.
import { join } from "node:path";
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { extractVideoFrames, type ExtractedVideos } from "../media/extract-video-frames.ts";
import type { Viewport } from "../plan/settle-render.ts";
import { frameTime, type ResolvedRender } from "../plan/resolve-render.ts";
import { prepareCapturePage } from "../browser/prepare-capture-page.ts";
import { settled } from "../../../core/settled.ts";
import type { CaptureSession, LoadedBrowser, PageToLoad } from "./capture-session.ts";
import { browsersFor } from "./capture-options.ts";
import { captureChunks, type ChunkDone } from "./capture-chunks.ts";
import type { PreparedCarry } from "../carry/prepare-carry.ts";
import { segmentsOf } from "../../../core/render/segment-plan.ts";
import type { FrameDone } from "./render-frame-range.ts";
import type { FrameRange } from "./split-frame-ranges.ts";
import type { TransitionSetup } from "./shader-transitions/transition-plan.ts";

/** What the capture reads of the plan (plan-render.ts PlannedRender), and the range it captures. */
export interface CaptureInput {
  /** Frames [start, end) of the composition's `frames`. */
  range: FrameRange;
  frames: number;
  /** The composition frame that is the output's first (a range render's from; 0 otherwise): a png-sequence counts its files from it. */
  outputStart: number;
  /** Format, quality, the settled rate and the encoder's rate control (crf, videoBitrate). */
  options: ResolvedRender;
  viewport: Viewport;
  alpha: boolean;
  transitions: TransitionSetup | null;
  /** The page more browsers load, and the plan's browser, already loaded. */
  page: PageToLoad;
  first: LoadedBrowser;
  /** Browsers at once: the range gets up to this many (capture-options.ts browsersFor). */
  concurrency: number;
  onFrame: (frame: FrameDone) => void;
  /** Incremental re-render (carry/prepare-carry.ts), or null. */
  carry?: PreparedCarry | null | undefined;
  /** A segment's file is complete (capture-chunks.ts). */
  onSegmentDone?: ((segment: ChunkDone) => Promise<void> | void) | undefined;
}

/** Captures the range and returns its segments' files in frame order; every browser is killed by then. */
export async function captureFrames(session: CaptureSession, input: CaptureInput): Promise<string[]> {
  const { range, options, page } = input;
  // No more browsers than segments: a segment is one browser's (core/render/segment-plan.ts).
  const workers = Math.min(browsersFor(range.end - range.start, input.concurrency), segmentsOf(range, options.fps).length);
  const ready = session.takeSpares(workers - 1);
  const more = Array.from({ length: workers - 1 - ready.length }, () => session.load(page));
  // Every <video> is decoded once, into frames the page shows while seeking; the decoding runs while the browsers
  // start. Its failure is seen where it is awaited, unless the browsers fail first.
  const decoding = session.timeline.time("decoding videos", decodeVideos(session, input.first.info.videos, input));
  void settled(decoding);
  // Each page is readied for capture as soon as it has loaded (and the videos are decoded), the first one while
  // the others still load.
  const prepared = async (load: Promise<LoadedBrowser>) => {
    const loadedOne = await load;
    const videos = await decoding;
    await prepareCapturePage(loadedOne.browser, {
      viewport: input.viewport, fps: options.fps, videos, composition: options.composition, bounded: session.tools, alpha: input.alpha,
    });
    return loadedOne;
  };
  const loaded = await session.timeline.time("starting browsers", Promise.all([Promise.resolve(input.first), ...ready, ...more].map(prepared)));
  session.failIfBlocked(options.strict);
  const chunks = await captureChunks(session, loaded, {
    range, frames: input.frames, outputStart: input.outputStart, options, viewport: input.viewport, alpha: input.alpha, transitions: input.transitions, onFrame: input.onFrame,
    onSegmentDone: input.onSegmentDone, carry: input.carry,
  });
  session.browsersGone();
  session.failIfBlocked(options.strict);
  return chunks;
}

/**
 * The range's frames of every <video> the page reported (`videos`, the plan's page's own account), as JPEG files the
 * project server serves to it; the render's side is only the window it shows, at its rate.
 */
function decodeVideos(session: CaptureSession, videos: CompositionInfo["videos"], input: CaptureInput): Promise<ExtractedVideos> {
  const { range, options } = input;
  if (videos.length === 0) return Promise.resolve({ videos: [], use: { bytes: 0, frames: 0, runs: 0, folders: 0 } });
  const sources = {
    videos,
    toFile: (src: string) => {
      const path = session.projectPath(src);
      return path === null ? null : join(session.projectDir, path);
    },
    dir: join(session.work, "video-frames"), tools: session.tools, budget: session.scratchBudget, onLine: session.onLine, onFinding: session.onFinding,
  };
  return extractVideoFrames(sources, {
    totalSeconds: (input.frames * options.fps.den) / options.fps.num, fpsText: options.fpsText, fps: options.fps, composition: options.composition,
    // Each clip's frames are those the range shows (a whole render: the composition's).
    window: range.start === 0 && range.end === input.frames ? undefined : { from: frameTime(range.start, options.fps), to: frameTime(range.end - 1, options.fps) },
  });
}
