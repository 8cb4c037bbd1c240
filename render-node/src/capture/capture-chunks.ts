// A frame range captured by loaded browsers as fixed segments (core/render/segment-plan.ts), each encoded by its own ffmpeg into
// a closed-GOP chunk (keyframe on its first frame): the browsers take the segments in order from one queue, every
// browser killed the moment the queue is empty and its last frame taken.
// capture-session.ts loads the browsers, decodes the videos and prepares the pages; this runs the capture itself.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { buildChunkArgs, chunkReadsTimestamps, ENCODER_SETTINGS } from "../encode/build-encode-args.ts";
import type { Viewport } from "../plan/settle-render.ts";
import { reportLateFindings } from "../browser/late-findings.ts";
import { settled } from "../../../core/settled.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";
import type { CaptureSession, LoadedBrowser } from "./capture-session.ts";
import type { ResolvedRender } from "../plan/resolve-render.ts";
import { renderFrameRange, type FrameDone } from "./render-frame-range.ts";
import type { TransitionSetup } from "./shader-transitions/transition-plan.ts";
import type { FrameRange } from "./split-frame-ranges.ts";
import { segmentFrames, segmentsOf, type Segment } from "../../../core/render/segment-plan.ts";
import type { PreparedCarry } from "../carry/prepare-carry.ts";

/** What the chunks are of the render: the range, and the options, size and transitions the plan settled. */
export interface ChunksToCapture {
  range: FrameRange;
  /** The composition's frame count (the page's clock). */
  frames: number;
  /** The composition frame that is the output's first (from; 0 without a range). */
  outputStart: number;
  options: ResolvedRender;
  viewport: Viewport;
  alpha: boolean;
  transitions: TransitionSetup | null;
  onFrame: (frame: FrameDone) => void;
  /** Incremental re-render: the carrier and the previous render's pieces (carry/prepare-carry.ts), or null. */
  carry?: PreparedCarry | null | undefined;
  /**
   * A segment's file is complete (its encoder has exited); segments complete roughly, not strictly, in order. What
   * it returns is awaited before the capture returns (the file is in the scratch folder until then).
   */
  onSegmentDone?: ((segment: ChunkDone) => Promise<void> | void) | undefined;
}

/** A finished segment: which one on the composition's clock, its frames, its file. */
export interface ChunkDone extends Segment {
  path: string;
}

/**
 * Captures the range in `loaded` (browsers taking its segments in order, each page prepared by
 * prepare-capture-page.ts; the first one's mode is logged) and returns the segments' files in frame order, written into the session's scratch folder with its
 * tools, timeline and log. Every browser is killed by the time it returns.
 */
export async function captureChunks(session: CaptureSession, loaded: LoadedBrowser[], input: ChunksToCapture): Promise<string[]> {
  const { range, options, viewport, alpha } = input;
  const { timeline, tools, onLine, onFinding, frameReuse: reuse } = session;
  const workers = loaded.length;
  const count = range.end - range.start;
  onLine(`capturing with ${loaded[0]!.browser.mode === "beginFrame" ? "beginFrame" : "screenshots"}, ${workers} browser${workers === 1 ? "" : "s"}`);
  const settings = ENCODER_SETTINGS[options.format][options.quality];
  const segments = segmentsOf(range, options.fps);
  const fit = viewport.captureWidth !== viewport.outputWidth || viewport.captureHeight !== viewport.outputHeight
    ? { width: viewport.outputWidth, height: viewport.outputHeight }
    : undefined;
  // Named by the segment's number on the composition's clock: the same segment has the same name in any render of it.
  const chunks = segments.map((segment) => join(session.work, `segment-${String(segment.index).padStart(5, "0")}.${settings.chunkExtension}`));
  // A png-sequence's chunk is a folder of numbered PNGs.
  if (options.format === "png-sequence") await Promise.all(chunks.map((dir) => mkdir(dir)));
  let reused = 0;
  const frameDone = (frame: FrameDone) => {
    if (frame.reused) reused++;
    input.onFrame(frame);
  };
  const known = new Set(loaded.flatMap((l) => l.info.findings.map((f) => f.message)));
  const endCapturing = timeline.begin("capturing");
  let capturing = workers;
  let endFinishing = () => {};
  // A browser whose frames are all taken is done: its late findings are read and it is killed at once (a graceful
  // close costs a second or more on a loaded machine), so the cores go to the other browsers and to the encoders
  // still flushing their chunks.
  const captured = async (browser: CaptureBrowser) => {
    // What broke after loading (a timer, a timeline callback during a seek): findings, and strict fails on them.
    await reportLateFindings([browser.page], options.composition, known, onFinding, options.strict);
    browser.kill();
    if (--capturing === 0) {
      endCapturing();
      endFinishing = timeline.begin("finishing chunks");
    }
  };
  // One queue for all browsers: each takes the next segment not yet taken, so the finished ones grow as a prefix.
  let taken = 0;
  const carried: Promise<void>[] = [];
  const nextSegment = () => {
    if (taken === segments.length) return null;
    const at = taken++;
    const part = segments[at]!.range;
    return {
      index: segments[at]!.index,
      range: part,
      ffmpegArgs: buildChunkArgs({
        format: options.format, quality: options.quality, fpsText: options.fpsText,
        gopFrames: segmentFrames(options.fps), fit, output: chunks[at]!,
        alpha, rate: options, firstFrame: part.start - input.outputStart,
      }),
    };
  };
  // What the caller does with each finished segment runs while the capture goes on; awaited before the capture ends.
  const handled: Promise<void>[] = [];
  const segmentDone = (done: { range: FrameRange }) => {
    const at = segments.findIndex((segment) => segment.range.start === done.range.start);
    const handling = Promise.resolve(input.onSegmentDone?.({ ...segments[at]!, path: chunks[at]! }));
    void settled(handling);
    handled.push(handling);
  };
  await Promise.all(
    loaded.map((one) =>
      renderFrameRange(one.browser, tools, {
        nextSegment,
        totalFrames: input.frames,
        fps: options.fps,
        jpegQuality: settings.jpegQuality,
        png: alpha,
        timed: chunkReadsTimestamps(options.format),
        reuse,
        transitions: input.transitions,
        onFrame: frameDone,
        onPageProblem: (problem) => onFinding(pageReportFinding(options.composition, problem)),
        onCaptured: () => captured(one.browser),
        onSegmentDone: segmentDone,
        carry: input.carry?.carrier,
        onSegmentCarried: (segment) => {
          const at = segments.findIndex((one) => one.index === segment.index);
          // A carried segment's file is the previous render's piece, ready once the cut is done.
          const placed = input.carry!.pieces.then((pieces) => {
            const piece = pieces.get(segment.index);
            if (!piece) throw new Error(`segment ${segment.index + 1} was carried but the previous render has no such piece`);
            chunks[at] = piece;
            segmentDone({ range: segment.range });
          });
          void settled(placed);
          carried.push(placed);
        },
      }),
    ),
  );
  await Promise.all(carried);
  await Promise.all(handled);
  endFinishing();
  onLine(reuse ? `frames reused: ${reused} of ${count} (provably identical to the frame before, not captured again)` : "frame reuse off: every frame captured");
  return chunks;
}
