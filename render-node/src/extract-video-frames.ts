// Decodes each <video> of a composition into JPEG frames at the render's frame rate, for the page to show.
import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { missingAssetFinding } from "../../core/browser/missing-asset.ts";
import { makeFinding, type Finding } from "../../core/protocol/finding.ts";
import type { VideoClip } from "../../page-runtime/api.ts";
import { runTool } from "./run-tool.ts";
import { encodeBound, type StageBounds } from "./stage-bounds.ts";

/** The clip frames (1-based, as the page numbers them) that composition times [from, to] show; null when none. */
export function clipFrameWindow(window: { from: number; to: number }, clipStart: number, fps: { num: number; den: number }): { first: number; last: number } | null {
  const frameOf = (localTime: number) => Math.floor((localTime * fps.num) / fps.den + 1e-6) + 1;
  if (window.to - clipStart < 0) return null;
  return { first: Math.max(1, frameOf(window.from - clipStart)), last: frameOf(window.to - clipStart) };
}

/** By video index: the highest frame number written, and a looping video's cycle on the timeline (else null). */
export interface ExtractedVideos {
  counts: number[];
  loopSeconds: (number | null)[];
}

/**
 * How long a file plays, as HyperFrames times a loop (its resolvePlayableVideoDuration): the video stream's start
 * plus its duration, else the container's duration; null when ffprobe says neither.
 */
async function playableSeconds(ffprobe: string, file: string, signal: AbortSignal, bounds: StageBounds): Promise<number | null> {
  const args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time,duration:format=duration", "-of", "json", file];
  const out = await runTool(ffprobe, args, signal, { bound: { ms: bounds.encodeMs, stage: "probing a looping video's length" } }).done;
  const probe = JSON.parse(out) as { streams?: { start_time?: string; duration?: string }[]; format?: { duration?: string } };
  const stream = probe.streams?.[0];
  const streamSeconds = Number(stream?.duration);
  if (Number.isFinite(streamSeconds) && streamSeconds > 0) return Math.max(0, Number(stream?.start_time) || 0) + streamSeconds;
  const formatSeconds = Number(probe.format?.duration);
  return Number.isFinite(formatSeconds) && formatSeconds > 0 ? formatSeconds : null;
}

/**
 * Writes <dir>/<index>/000001.jpg… for each video (frame 1 = the clip's first instant); returns, by index, the
 * highest frame number written (the page holds it past the clip's end), and for a video with `loop` the length of
 * one cycle (its file from the in-point, at its rate), which the page starts over each time. With `window` (a
 * segment's composition times, first and last frame) only the frames the segment shows are written, under their own
 * numbers: the decode still runs from the clip's start, so the frames are the very ones a whole extraction writes,
 * but a segment late in a long video does not encode every earlier frame to JPEG. A looping video is extracted
 * whole (one cycle) whatever the window: a segment may show any of its frames.
 */
export async function extractVideoFrames(options: {
  videos: VideoClip[];
  /** Maps a page URL to a local file, or null when it is not a project file. */
  toFile: (url: string) => string | null;
  totalSeconds: number;
  fpsText: string;
  /** Needed with `window`: the rate as a fraction. */
  fps?: { num: number; den: number } | undefined;
  window?: { from: number; to: number } | undefined;
  dir: string;
  ffmpeg: string;
  /** Reads a looping video's length. */
  ffprobe: string;
  /** Each clip's decode is bounded like an encode step over the clip's seconds. */
  bounds: StageBounds;
  signal: AbortSignal;
  onLine: (line: string) => void;
  onFinding: (finding: Finding) => void;
  /** The composition being rendered, the file a finding about a clip names. */
  composition: string;
}): Promise<ExtractedVideos> {
  const counts: number[] = [];
  const loopSeconds: (number | null)[] = [];
  for (const video of options.videos) {
    counts[video.index] = 0;
    loopSeconds[video.index] = null;
    const file = video.src ? options.toFile(video.src) : null;
    if (!file) {
      options.onFinding(makeFinding("media-not-project-file", options.composition, `video ${video.src ?? "(no src)"} is not a project file; it stays blank`));
      continue;
    }
    if (!(await stat(file).then((info) => info.isFile(), () => false))) {
      // ffmpeg would fail the whole render on it: the clip stays blank, with the finding (a strict render fails on it).
      options.onFinding(missingAssetFinding({ path: decodeURIComponent(new URL(video.src!).pathname).slice(1), referrer: null, status: 404 }));
      continue;
    }
    const out = join(options.dir, String(video.index));
    await mkdir(out, { recursive: true });
    const seconds = Math.max(0, video.duration ?? options.totalSeconds - video.start);
    const frames = options.window && options.fps && !video.loop ? clipFrameWindow(options.window, video.start, options.fps) : { first: 1, last: Infinity };
    // A clip that starts after the segment, or (with a duration) ends before it, is hidden throughout it.
    if (!frames || (options.window && video.duration !== null && options.window.from > video.start + video.duration)) {
      options.onLine(`video ${video.src} is not shown in this segment: no frames extracted`);
      continue;
    }
    const bound = { ms: encodeBound(options.bounds, seconds), stage: `extracting the frames of ${decodeURIComponent(new URL(video.src!).pathname).slice(1)}` };
    const extract = async (first: number, last: number) => {
      // The fps filter runs from the clip's start as in a whole extraction, and `select` keeps frames first..last by
      // their index n (frame k is n = k-1), numbered from `first`: the very files a whole extraction writes. (Output
      // -ss would be cheaper but shifts frames by one on ffmpeg 4.1.) The input stops two frames after `last`.
      const windowed = first > 1 || Number.isFinite(last);
      const fps = options.fps ?? { num: 1, den: 1 };
      const keep = Number.isFinite(last) ? `between(n\\,${first - 1}\\,${last - 1})` : `gte(n\\,${first - 1})`;
      // At data-playback-rate r the clip's frame at timeline second s is its file's at r·s: the decoded frames'
      // times are divided by r before the fps filter samples them (the input's own -t counts the file's seconds).
      const rate = video.playbackRate;
      const speed = rate === 1 ? "" : `setpts=(PTS-STARTPTS)/${rate},`;
      const args = [
        "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-ss", String(video.mediaStart),
        ...(Number.isFinite(last) ? ["-t", ((((last + 2) * fps.den) / fps.num) * rate).toFixed(6)] : []),
        "-i", file, "-t", seconds.toFixed(6),
        "-vf", windowed ? `${speed}fps=${options.fpsText},select='${keep}'` : `${speed}fps=${options.fpsText}`,
        ...(windowed ? ["-vsync", "0"] : []),
        "-q:v", "3", "-start_number", String(first), join(out, "%06d.jpg"),
      ];
      await runTool(options.ffmpeg, args, options.signal, { bound }).done;
      return (await readdir(out)).filter((name) => name.endsWith(".jpg")).length;
    };
    let written = await extract(frames.first, frames.last);
    let highest = frames.first - 1 + written;
    if (written === 0 && frames.first > 1) {
      // The source ended before the window: the page holds its last frame, so write them all (a rare case).
      written = await extract(1, Infinity);
      highest = written;
    }
    counts[video.index] = highest;
    if (video.loop) {
      const playable = await playableSeconds(options.ffprobe, file, options.signal, options.bounds);
      if (playable !== null && playable > video.mediaStart) loopSeconds[video.index] = (playable - video.mediaStart) / video.playbackRate;
    }
    options.onLine(`extracted ${written} frames of ${video.src}${frames.first > 1 || Number.isFinite(frames.last) ? ` (frames ${frames.first} to ${highest} for this segment)` : ""}`);
  }
  return { counts, loopSeconds };
}
