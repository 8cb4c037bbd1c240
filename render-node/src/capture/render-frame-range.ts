// One browser's share of a render: the fixed segments it takes (core/render/segment-plan.ts), each sought, captured and
// handed frame by frame to that segment's own encoder (segment-encoder.ts), so a segment's file depends on its frames
// and the settings only. A segment shared between browsers (segment-shares.ts) is taken as one contiguous share of
// its frames, written in frame order after the shares before it.
import type { CaptureBrowser } from "../browser/launch-capture-browser.ts";
import type { StudioWindow } from "../../../page-runtime/api.ts";
import { drawFrame, type DrawRequest, type FrameClock } from "./capture-frame.ts";
import type { FrameRange } from "./split-frame-ranges.ts";
import { frameTime, type Fps } from "../plan/resolve-render.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { pageBound, seconds } from "../bounds/deadline.ts";
import type { TransitionSetup } from "./shader-transitions/transition-plan.ts";
import { captureTransitionFrame, transitionAt } from "./shader-transitions/capture-transition-frame.ts";
import { startBlender, type Blender } from "./shader-transitions/blend-pool.ts";
import { imageSize, ivfFrameHeader, ivfHeader } from "../encode/ivf-stream.ts";
import { readSeekAnswer } from "../../../core/protocol/read-page-answers.ts";
import type { PageProblem } from "../../../core/protocol/read-page-report.ts";
import { settled } from "../../../core/settled.ts";
import type { SegmentCarrier } from "../carry/segment-carrier.ts";
import { readFingerprint } from "../carry/carry-manifest.ts";
import { CarryReplayMismatch, scoutSegment } from "../carry/scout-segment.ts";
import type { ShareInput } from "./segment-shares.ts";

/** One segment, or one share of a shared segment, as a browser takes it: the frames it captures and where they go. */
export interface SegmentToEncode {
  /** Its number on the composition's clock (core/render/segment-plan.ts). */
  index: number;
  /** The frames this browser captures: the whole segment, or its share of a shared one. */
  range: FrameRange;
  /** The whole segment's frames (the encoder's timestamps and the segment's last two frames count from these). */
  segment: FrameRange;
  /** A share of a segment several browsers capture: never scouted for carrying (capture-chunks.ts shares only a segment that cannot be carried). */
  shared: boolean;
  /** The way into the segment's encoder, which starts with the first share opened: called as the capture begins. */
  open: () => ShareInput;
}

/** What one browser's share is of the render: the segments it takes, their rate, image and encoder (the node's side apart). */
export interface FrameRangeJob {
  /**
   * The next segment (or share of one) not yet taken by any browser, or null when none is left: the browsers share
   * one queue in frame order, so segments finish roughly in order.
   */
  nextSegment: () => SegmentToEncode | null;
  /** Frames of the whole render, for messages ("frame 412 of 900"). */
  totalFrames: number;
  fps: Fps;
  jpegQuality: number;
  /** Capture PNGs with alpha in place of JPEGs (the encoder reads PNG then). */
  png?: boolean | undefined;
  /**
   * ffmpeg reads the frames timestamped (buildChunkArgs, chunkReadsTimestamps): a reused frame is then not written
   * again, only a hold's last frame is. Otherwise every frame is written in full.
   */
  timed: boolean;
  /** Frame reuse: a frame the page proves identical to the one before is not captured again (its bytes are). */
  reuse: boolean;
  onFrame: (frame: FrameDone) => void;
  /** A seekFrame answer that did not parse (the frame is captured); reported once per browser. */
  onPageProblem?: ((problem: PageProblem) => void) | undefined;
  /** The composition's shader transitions (transition-plan.ts): their frames are two scenes blended. */
  transitions?: TransitionSetup | null | undefined;
  /** Called once the browser's last frame is handed to ffmpeg, before its last segment is flushed (the browser is free). */
  onCaptured?: (() => Promise<void>) | undefined;
  /**
   * Incremental re-render (carry/): every frame's fingerprint goes to the carrier, and a segment it proves the
   * previous render's is carried (scout-segment.ts), not captured or encoded.
   */
  carry?: SegmentCarrier | null | undefined;
  /** A segment was carried: its file is the previous render's piece. */
  onSegmentCarried?: ((segment: SegmentToEncode) => void) | undefined;
}

/** One frame handed to the encoder: which, and whether it is the previous frame's bytes again (reuse). */
export interface FrameDone {
  index: number;
  reused: boolean;
  /** Why it was captured (the page's answer), or null when reused or carried. */
  change: string | null;
  /** Sought only: its segment was carried from the previous render (neither captured nor encoded). */
  carried?: boolean | undefined;
}

/**
 * Renders the segments `job.nextSegment` hands this browser, in `capture` (its page loaded and prepared), each into
 * its segment's encoder, with `tools` (the stage bounds and the render's signal). A segment's encoder flushes while
 * the browser captures the next one; the next one's ffmpeg starts while its first frame is sought. Seek, capture and hand-over to ffmpeg are each bounded by bounds.frameMs: a page that hangs fails with
 * "frame 412 of 900 (at 13.700 s) did not finish seeking in 10 s" (frames counted from 1, as in the progress lines).
 */
export async function renderFrameRange(capture: CaptureBrowser, tools: StageTools, job: FrameRangeJob): Promise<void> {
  const interval = (1000 * job.fps.den) / job.fps.num;
  const clock: FrameClock = { interval };
  const { page } = capture;
  // Every image of the browser's segments, plain or a transition's scene, is drawn here: this browser, at this rate.
  const draw = (request: DrawRequest) => drawFrame(capture, clock, request);
  // The page's answer to seekFrame, checked on every frame without a round trip (readSeekAnswer: a typeof and a
  // length): one the page forged is a capture, reported once per browser.
  let answerProblem = false;
  const answerOf = (raw: unknown, t: number): string | null => {
    const read = readSeekAnswer(raw, t);
    if (read.problems[0] && !answerProblem) {
      answerProblem = true;
      job.onPageProblem?.(read.problems[0]);
    }
    return read.value;
  };
  const bound = tools.bounds.frameMs;
  const within = seconds(bound);
  // Slow is not hung: each bound runs at the pace its processes get the CPU (paced-deadline.ts). The page's bound
  // ends at ten times its length whatever the pace; ffmpeg, busy with frames queued before, at the segment's bound.
  const paced = pageBound(bound, capture.pid);
  // Started at the first transition frame only: a render without shader transitions runs no worker.
  let blender = null as Blender | null;
  let index = 0;
  let time = 0;
  const frameName = () => `frame ${index + 1} of ${job.totalFrames} (at ${time.toFixed(3)} s)`;
  const seekMessage = () => `${frameName()} did not finish seeking in ${within}`;
  const captureMessage = () => `${frameName()} was not captured in ${within}`;
  const encodeMessage = () => `${frameName()} was not taken by the encoder in ${within}`;
  // Each segment's flush, awaited once the browser has no segment left (each one's failure is seen there).
  const flushes: Promise<void>[] = [];

  // The seek of one frame: seekFrame (frame reuse's answer) or seek, and with a carrier the frame's fingerprint in
  // the same round trip.
  const seekTo = async (t: number, from: number | null): Promise<{ change: string | null; print: string | null }> => {
    const carrying = !!job.carry;
    const raw = await tools.paced(page.evaluate(async (at: number, f: number | null, reuse: boolean, fingerprint: boolean): Promise<unknown> => {
      const studio = (window as unknown as StudioWindow).__studio;
      const change = reuse ? await studio.seekFrame(at, f) : await studio.seek(at).then(() => "frame reuse is off");
      return fingerprint ? [change, studio.frameFingerprint()] : change;
    }, t, from, job.reuse, carrying), paced, seekMessage);
    if (!carrying) return { change: job.reuse ? answerOf(raw, t) : "frame reuse is off", print: null };
    const [change, print] = Array.isArray(raw) ? raw : [raw, null];
    return { change: job.reuse ? answerOf(change, t) : "frame reuse is off", print: readFingerprint(print) };
  };

  /**
   * One segment (or share) into its segment's encoder; returns the segment's completion (ffmpeg finishing the file
   * once every share is written), not awaited.
   */
  const encodeSegment = async (work: SegmentToEncode, expect: string[] | null): Promise<{ flushed: Promise<void> }> => {
    const { range, segment } = work;
    const input = work.open();
    // Nothing is carried over from the segment (or share) before: its first frame is captured, never reused, so the
    // segment's bytes are the same whichever browsers (or nodes) render it and whatever they rendered before.
    let previous: Buffer | null = null;
    let previousTime: number | null = null;
    // A blended frame is never the bytes of the next one, whatever the page says about its DOM.
    let previousBlended = false;
    const hand = (data: Buffer) => input.hand(data, encodeMessage);
    // Timestamped: the frame's number in the segment goes before its bytes. The last reused frame not yet written is
    // written before the next captured one, so the frames ffmpeg fills in (-vsync cfr) lie between two copies of the
    // same picture, whichever of the two it repeats. The segment's last two frames are always written: at the end of
    // its input ffmpeg repeats the last frame as often as the median of the last three frames' fills, so those must
    // be 0 or the segment would grow by frames that do not exist. A share that ends before its segment does writes
    // its held frame at its end: the next share's first frame is captured, as any frame after a hold.
    let lastHeld: number | null = null;
    // The stream's header is the segment's first share's to write.
    let headerSent = range.start !== segment.start;
    // A later share of a segment, frame reuse on: its first frame may be the frame before it again, which the share
    // before captured. The page is sought to that frame first (a seek, no capture), so the reuse proof covers the
    // share's first frame as it would from one browser, and a frame proven the same is handed as "the picture before,
    // again" (segment-shares.ts). Not after a shader transition's frame (never reused after, as from one browser).
    let inherited = false;
    const send = async (bytes: Buffer, frameIndex: number) => {
      if (job.timed) {
        // The stream's header goes before the first frame and states that frame's own size (ivf-stream.ts imageSize).
        if (!headerSent) {
          const size = imageSize(bytes);
          if (!size) throw new Error(`${frameName()}: Chromium's image has no readable size`);
          await hand(ivfHeader({ image: job.png ? "png" : "jpeg", ...size, fps: job.fps }));
          headerSent = true;
        }
        await hand(ivfFrameHeader(bytes.length, frameIndex - segment.start));
      }
      await input.handPicture(bytes, encodeMessage);
    };
    // The picture before this share's first frame, again, as frame `frameIndex`.
    const sendAgain = (frameIndex: number) =>
      input.handAgain(job.timed ? (picture) => ivfFrameHeader(picture.length, frameIndex - segment.start) : null, encodeMessage);
    const sendHoldEnd = async () => {
      if (lastHeld !== null && previous) await send(previous, lastHeld);
      else if (lastHeld !== null && inherited) await sendAgain(lastHeld);
      lastHeld = null;
    };
    const captureBytes = async (): Promise<Buffer> => {
      // beginFrame returns no image when nothing changed on screen; the first frame must exist, and so must the one
      // after a blended transition frame (the screen held the blend, not this frame), so ask again (three more times).
      const fallback = previousBlended ? null : previous;
      const frame = await draw({
        jpegQuality: job.jpegQuality, png: job.png, attempts: fallback ? 1 : 4, bound: (drawing) => tools.paced(drawing, paced, captureMessage),
      });
      const bytes = frame ?? fallback;
      if (!bytes) throw new Error(`${frameName()}: Chromium produced no image`);
      return bytes;
    };
    try {
      if (range.start !== segment.start && job.reuse && !transitionAt(job.transitions, frameTime(range.start - 1, job.fps))) {
        index = range.start - 1;
        time = frameTime(index, job.fps);
        // Its fingerprint and findings are the share before's to record (a finding is reported once).
        await seekTo(time, null);
        previousTime = time;
        inherited = true;
      }
      for (index = range.start; index < range.end; index++) {
        tools.signal.throwIfAborted();
        if (input.failure()) break;
        time = frameTime(index, job.fps);
        // Every frame is sought, reused or not, so what a seek raises (a timeline callback that throws) is still
        // found; only the capture is skipped, when the page proves nothing could differ from the frame before.
        const active = transitionAt(job.transitions, time);
        if (active && job.transitions) {
          await tools.paced(page.evaluate((t: number) => (window as unknown as StudioWindow).__studio.seek(t), time), paced, seekMessage);
          previousTime = time;
          blender ??= startBlender();
          const frame = { setup: job.transitions, ...active };
          const bytes = await tools.paced(captureTransitionFrame(page, draw, frame, blender, job.jpegQuality, job.png ?? false), paced, captureMessage);
          await sendHoldEnd();
          previous = bytes;
          previousBlended = true;
          await send(bytes, index);
          job.carry?.frame(index, "!shader transition");
          job.onFrame({ index, reused: false, change: `shader transition ${active.transition.shader}` });
          continue;
        }
        const from: number | null = previous || inherited ? previousTime : null;
        const { change, print } = await seekTo(time, from);
        if (print !== null) {
          // Sought again after seeking back (scout-segment.ts): it must show what it showed going forward.
          const before = expect?.[index - range.start];
          if (before !== undefined && before !== "!shader transition" && (before !== print || print.startsWith("!"))) throw new CarryReplayMismatch(index);
          job.carry?.frame(index, print);
        }
        previousTime = time;
        const reused = change === null && (previous !== null || inherited) && !previousBlended;
        if (reused && job.timed && index < segment.end - 2) {
          lastHeld = index;
        } else if (reused && !previous) {
          await sendHoldEnd();
          await sendAgain(index);
        } else {
          const bytes: Buffer = reused && previous ? previous : await captureBytes();
          await sendHoldEnd();
          previous = bytes;
          previousBlended = false;
          await send(bytes, index);
        }
        job.onFrame({ index, reused, change: reused ? null : (change ?? "no frame before it") });
      }
      if (!input.failure()) await sendHoldEnd();
    } catch (error) {
      input.abandon(error);
      throw error;
    }
    const flushed = input.close();
    // A dead encoder ends the browser's work at once, with ffmpeg's own words.
    if (input.failure()) await flushed;
    return { flushed };
  };

  try {
    for (let segment = job.nextSegment(); segment; segment = job.nextSegment()) {
      let expect: string[] | null = null;
      if (job.carry && !segment.shared) {
        const { range } = segment;
        const verdict = await scoutSegment(job.carry, segment.index, range, {
          seek: async (frame, first) => {
            index = frame;
            time = frameTime(frame, job.fps);
            return (await seekTo(time, first ? null : frameTime(frame - 1, job.fps))).print ?? "!not fingerprinted";
          },
          isTransition: (frame) => transitionAt(job.transitions, frameTime(frame, job.fps)) !== null,
          signal: tools.signal,
        });
        if (verdict.carried) {
          for (let frame = range.start; frame < range.end; frame++) job.onFrame({ index: frame, reused: false, change: null, carried: true });
          job.onSegmentCarried?.(segment);
          continue;
        }
        expect = verdict.expect;
      }
      const { flushed } = await encodeSegment(segment, expect);
      // Observed now, awaited below: a segment that fails while the next is captured is not an unhandled rejection.
      void settled(flushed);
      flushes.push(flushed);
    }
  } finally {
    await blender?.close();
  }
  await job.onCaptured?.();
  await Promise.all(flushes);
}
