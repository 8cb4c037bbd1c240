// ffmpeg's arguments for extracting one span of a <video>'s frames, as data. Every number the page reported is
// formatted here by the node (a checked, finite number written as digits), and every path is the node's own:
// the folder from the plan's counter, the file the node resolved inside the project.
import { join } from "node:path";
import type { Fps } from "../plan/resolve-render.ts";
import type { FrameSpan } from "./plan-video-extractions.ts";

/**
 * A non-negative number of seconds as ffmpeg reads a time: its decimal digits, the fraction cut at microseconds
 * (what ffmpeg's own parser keeps of a longer one, so the seek is the one the page's value always gave).
 */
export function ffmpegSeconds(value: number): string {
  if (!Number.isFinite(value) || value < 0) throw new Error(`not a time in seconds: ${String(value)}`);
  const text = String(value);
  const plain = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!plain) return value.toFixed(6);
  return plain[2] ? `${plain[1]}.${plain[2].slice(0, 6)}` : plain[1]!;
}

export interface ExtractSpanInput {
  file: string;
  /** The extraction's folder (the node's own path). */
  out: string;
  span: FrameSpan;
  /** At most this many frames are written (the span, or less when the frame budget has less room). */
  maxFrames: number;
  mediaStart: number;
  /** Seconds of the file from the in-point the output may cover (what the clip can show of it: plan-video-extractions.ts). */
  seconds: number;
  fps: Fps;
  fpsText: string;
}

/**
 * Writes clip frames span.first..span.last as <out>/<frame>.jpg. The fps filter runs from the clip's start, so a
 * span that starts at frame 1 is a plain extraction and a later one keeps frames first..last by their index n
 * (frame k is n = k-1) with `select`, numbered from `first`: the very files a whole extraction writes. (Output
 * -ss would be cheaper but shifts frames by one on ffmpeg 4.1.) A later span's input stops two frames after
 * `last`; -frames:v stops every run at its last frame, whatever the file's length or the clip's data-duration.
 */
export function buildExtractArgs(input: ExtractSpanInput): string[] {
  const { span, fps } = input;
  const windowed = span.first > 1;
  // Frames are on the file's clock (frame k is the file's instant (k-1)/fps from the in-point) whatever the clip's
  // data-playback-rate or speed ramp: the page picks the frame at rate × clip time, as HyperFrames' frame lookup
  // does (floor of the source time in frames). Stretching the decoded times by the rate first (setpts) let the fps
  // filter round to the nearest frame instead: at rate 3, source frame 3k+1 where HyperFrames shows 3k.
  const keep = `between(n\\,${span.first - 1}\\,${span.last - 1})`;
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    "-ss", ffmpegSeconds(input.mediaStart),
    ...(windowed ? ["-t", (((span.last + 2) * fps.den) / fps.num).toFixed(6)] : []),
    "-i", input.file, "-t", input.seconds.toFixed(6),
    "-vf", windowed ? `fps=${input.fpsText},select='${keep}'` : `fps=${input.fpsText}`,
    ...(windowed ? ["-vsync", "0"] : []),
    "-frames:v", String(Math.max(1, Math.min(input.maxFrames, span.last - span.first + 1))),
    "-q:v", "3", "-start_number", String(span.first), join(input.out, "%06d.jpg"),
  ];
}

/**
 * The file's last frame from this in-point, for a span that starts after the file has ended (the page
 * holds it): every frame goes through the same filters and only the last stays on disk (`-update`), written as
 * <out>/last.jpg for the caller to number.
 */
export function buildLastFrameArgs(input: Omit<ExtractSpanInput, "span" | "maxFrames">): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    "-ss", ffmpegSeconds(input.mediaStart),
    "-i", input.file, "-t", input.seconds.toFixed(6),
    "-vf", `fps=${input.fpsText}`,
    "-q:v", "3", "-update", "1", join(input.out, "last.jpg"),
  ];
}
