// A frame range captured by loaded browsers as fixed segments (core/render/segment-plan.ts), each encoded by its own ffmpeg into
// a closed-GOP chunk (keyframe on its first frame): the browsers take the segments in order from one queue, every
// browser killed the moment the queue is empty and its last frame taken. The first segment is captured by all the
// browsers at once, each a contiguous share of its frames written into its one encoder in order (segment-shares.ts):
// the first piece of a render watched live is ready after a share's capture, not a whole segment's.
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
import { renderFrameRange, type FrameDone, type SegmentToEncode } from "./render-frame-range.ts";
import type { TransitionSetup } from "./shader-transitions/transition-plan.ts";
import { splitFrameRanges, type FrameRange } from "./split-frame-ranges.ts";
import { segmentFrames, segmentsOf, type Segment } from "../../../core/render/segment-plan.ts";
import type { PreparedCarry } from "../carry/prepare-carry.ts";
import { startSegmentEncoder } from "./segment-encoder.ts";
import { segmentShares, type SegmentShares } from "./segment-shares.ts";

/**
 * How far a later share of the shared first segment may run ahead of the shares before it, in frames' bytes held in
 * memory (a share of 1080p JPEGs is a few MB; of 4K PNGs with alpha, far more): past it, its browser waits its turn.
 */
export const SHARE_AHEAD_BYTES = 64 * 1024 * 1024;

/**
 * The shared first segment is dealt out in this many contiguous shares per browser, taken from the queue in frame
 * order: the encoder is handed the frames nearly as they are captured, so little is left to encode once the last one
 * is. In two halves, the second browser's half waited until the first half was written and was all encoded after
 * the capture (1.3 to 1.7 s of a 1080p starter's segment on this machine under load; bench/README.md).
 */
export const SHARES_PER_BROWSER = 3;

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
  // What the caller does with each finished segment runs while the capture goes on; awaited before the capture ends.
  const handled: Promise<void>[] = [];
  const segmentDone = (at: number) => {
    const handling = Promise.resolve(input.onSegmentDone?.({ ...segments[at]!, path: chunks[at]! }));
    void settled(handling);
    handled.push(handling);
  };
  // The first segment is shared by every browser unless the carrier may carry it: whether it can is seen by
  // scouting it whole (scout-segment.ts), one browser's work. One the carrier refuses before any frame is sought (no
  // previous render, or one that did not hold this segment whole) is captured, so it is shared.
  const first = segments[0]!;
  const whyNotCarried = input.carry ? input.carry.carrier.whyNotSegment(first.index, first.range) : null;
  const shareFirst = workers > 1 && (!input.carry || whyNotCarried !== null);
  if (shareFirst && whyNotCarried !== null) input.carry?.carrier.captured(first.index, whyNotCarried);
  // One queue for all browsers, in frame order: the first segment's shares, then each segment whole. Each browser
  // takes the next one not yet taken, so the finished segments grow as a prefix.
  const queue = segments.flatMap((segment, at) => {
    const size = segment.range.end - segment.range.start;
    const parts = at === 0 && shareFirst ? splitFrameRanges(size, workers * SHARES_PER_BROWSER) : [{ start: 0, end: size }];
    return parts.map((part, share) => ({ at, share, shares: parts.length, range: { start: segment.range.start + part.start, end: segment.range.start + part.end } }));
  });
  // Each segment's encoder behind its shares, made and started when its first share is opened (a carried segment has
  // none: it is never opened).
  const encoders = new Map<number, SegmentShares>();
  const encoderOf = (at: number, shares: number): SegmentShares => {
    const existing = encoders.get(at);
    if (existing) return existing;
    const part = segments[at]!.range;
    const ffmpegArgs = buildChunkArgs({
      format: options.format, quality: options.quality, fpsText: options.fpsText,
      gopFrames: segmentFrames(options.fps), fit, output: chunks[at]!,
      alpha, rate: options, firstFrame: part.start - input.outputStart,
    });
    const made = segmentShares(shares, () => {
      const encoder = startSegmentEncoder(tools, { range: part, ffmpegArgs }, options.fps);
      return { ...encoder, finish: () => encoder.finish().then(() => segmentDone(at)) };
    }, { maxPendingBytes: SHARE_AHEAD_BYTES, signal: session.signal });
    encoders.set(at, made);
    return made;
  };
  let taken = 0;
  const carried: Promise<void>[] = [];
  const nextSegment = (): SegmentToEncode | null => {
    const item = queue[taken++];
    if (!item) return null;
    const segment = segments[item.at]!;
    return { index: segment.index, range: item.range, segment: segment.range, shared: item.shares > 1, open: () => encoderOf(item.at, item.shares).open(item.share) };
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
        carry: input.carry?.carrier,
        onSegmentCarried: (segment) => {
          const at = segments.findIndex((one) => one.index === segment.index);
          // A carried segment's file is the previous render's piece, ready once the cut is done.
          const placed = input.carry!.pieces.then((pieces) => {
            const piece = pieces.get(segment.index);
            if (!piece) throw new Error(`segment ${segment.index + 1} was carried but the previous render has no such piece`);
            chunks[at] = piece;
            segmentDone(at);
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
