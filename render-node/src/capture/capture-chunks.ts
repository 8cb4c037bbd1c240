// A frame range captured by loaded browsers, each encoding its share into a closed-GOP chunk (keyframe on its
// first frame): the range split between them, every browser killed the moment its frames are taken.
// capture-session.ts loads the browsers, decodes the videos and prepares the pages; this runs the capture itself.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { buildChunkArgs, chunkReadsTimestamps, ENCODER_SETTINGS } from "../encode/build-encode-args.ts";
import type { Viewport } from "../plan/settle-render.ts";
import { reportLateFindings } from "../browser/late-findings.ts";
import { pageReportFinding } from "../../../core/protocol/read-page-report.ts";
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";
import type { CaptureSession, LoadedBrowser } from "./capture-session.ts";
import type { ResolvedRender } from "../plan/resolve-render.ts";
import { renderFrameRange, type FrameDone } from "./render-frame-range.ts";
import type { TransitionSetup } from "./shader-transitions/transition-plan.ts";
import { splitFrameRanges, type FrameRange } from "./split-frame-ranges.ts";

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
}

/**
 * Captures the range in `loaded` (one browser per chunk, its page prepared by prepare-capture-page.ts; the first
 * one's mode is logged) and returns its chunk files in order, written into the session's scratch folder with its
 * tools, timeline and log. Every browser is killed by the time it returns.
 */
export async function captureChunks(session: CaptureSession, loaded: LoadedBrowser[], input: ChunksToCapture): Promise<string[]> {
  const { range, options, viewport, alpha } = input;
  const { timeline, tools, onLine, onFinding, frameReuse: reuse } = session;
  const workers = loaded.length;
  const count = range.end - range.start;
  onLine(`capturing with ${loaded[0]!.browser.mode === "beginFrame" ? "beginFrame" : "screenshots"}, ${workers} browser${workers === 1 ? "" : "s"}`);
  const settings = ENCODER_SETTINGS[options.format][options.quality];
  const parts = splitFrameRanges(count, workers).map((r) => ({ start: r.start + range.start, end: r.end + range.start }));
  const fit = viewport.captureWidth !== viewport.outputWidth || viewport.captureHeight !== viewport.outputHeight
    ? { width: viewport.outputWidth, height: viewport.outputHeight }
    : undefined;
  const chunks = parts.map((_, i) => join(session.work, `chunk-${String(i).padStart(3, "0")}.${settings.chunkExtension}`));
  // A png-sequence's chunk is a folder of numbered PNGs.
  if (options.format === "png-sequence") await Promise.all(chunks.map((dir) => mkdir(dir)));
  let reused = 0;
  const frameDone = (frame: FrameDone) => {
    if (frame.reused) reused++;
    input.onFrame(frame);
  };
  const known = new Set(loaded.flatMap((l) => l.info.findings.map((f) => f.message)));
  const endCapturing = timeline.begin("capturing");
  let capturing = parts.length;
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
  await Promise.all(
    parts.map((part, i) =>
      renderFrameRange(loaded[i]!.browser, tools, {
        range: part,
        totalFrames: input.frames,
        fps: options.fps,
        jpegQuality: settings.jpegQuality,
        png: alpha,
        timed: chunkReadsTimestamps(options.format),
        ffmpegArgs: buildChunkArgs({
          format: options.format, quality: options.quality, fpsText: options.fpsText,
          gopFrames: Math.max(1, Math.round((2 * options.fps.num) / options.fps.den)), fit, output: chunks[i]!,
          alpha, rate: options, firstFrame: part.start - input.outputStart,
        }),
        reuse,
        transitions: input.transitions,
        onFrame: frameDone,
        onPageProblem: (problem) => onFinding(pageReportFinding(options.composition, problem)),
        onCaptured: () => captured(loaded[i]!.browser),
      }),
    ),
  );
  endFinishing();
  onLine(reuse ? `frames reused: ${reused} of ${count} (provably identical to the frame before, not captured again)` : "frame reuse off: every frame captured");
  return chunks;
}
