// Decodes the <video> clips of a composition into JPEG frames at the render's frame rate, for the page to show.
// The page's report of its clips is data from a hostile program: each clip's frames are limited to what the
// render's window can show of it (plan-video-extractions.ts), clips of one file at one rate and in-point share one
// folder, folders are named by the node's own counter, and the job's frames stay within its scratch budget
// (scratch-budget.ts): refused before decoding when the plan is over the frame budget, stopped while ffmpeg writes
// when they pass the byte budget (run-extraction.ts). On any failure the frames written so far are removed.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { missingAssetFinding } from "../../../core/browser/missing-asset.ts";
import { parseAutomation } from "../../../core/composition/audio-automation.ts";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";
import { PAGE_REPORT_LIMITS } from "../../../core/protocol/page-report.ts";
import type { VideoClip, VideoFrameSource } from "../../../page-runtime/api.ts";
import type { Fps } from "../plan/resolve-render.ts";
import { heldFrame, planVideoExtractions, plannedFrames, sourceClipFrames, spanFrames, type ClipToPlan, type FrameSpan } from "./plan-video-extractions.ts";
import { probePlayableSeconds } from "./probe-playable-seconds.ts";
import { runExtraction } from "./run-extraction.ts";
import type { ScratchUse } from "./follow-frame-files.ts";
import { DEFAULT_SCRATCH_BUDGET, frameBudgetRefusal, type ScratchBudget } from "./scratch-budget.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { isFile } from "../system/is-file.ts";

/**
 * Where the page looks each video up: by its place in the page's own list (its `index`, which the page report's
 * reader holds to that place), the video's position in `videos`. A video the reader left out leaves a null there,
 * so the others keep their places and the one left out stays blank. An index outside the list's bound (only a
 * caller that skipped the reader could pass one) gets no slot.
 */
function slotsOf(videos: VideoClip[]): (number | null)[] {
  const slots: (number | null)[] = [];
  const inBound = (index: number) => Number.isInteger(index) && index >= 0 && index < PAGE_REPORT_LIMITS.videos;
  const highest = Math.max(-1, ...videos.map((v) => v.index).filter(inBound));
  for (let slot = 0; slot <= highest; slot++) slots.push(null);
  videos.forEach((video, position) => {
    if (inBound(video.index)) slots[video.index] = position;
  });
  return slots;
}

/** What the page is configured with: by the video's place in the page's list, the frames it shows (or null). */
export interface ExtractedVideos {
  videos: (VideoFrameSource | null)[];
  /** What the extractions took: bytes and frames on disk, ffmpeg runs, folders. */
  use: ScratchUse & { folders: number };
}

/** The page's clips and the node's side of decoding them: files, scratch folder, tools, budget and log. */
export interface VideoSources {
  videos: VideoClip[];
  /** Maps a page URL to a local file, or null when it is not a project file. */
  toFile: (url: string) => string | null;
  dir: string;
  /**
   * ffmpeg decodes, ffprobe reads a looping video's length (and a file's, when the plan is over the frame budget);
   * each run is bounded like an encode step over the media it decodes, and stops on the job's signal.
   */
  tools: StageTools;
  /** Default: from the node's environment. */
  budget?: ScratchBudget | undefined;
  onLine: (line: string) => void;
  onFinding: (finding: Finding) => void;
}

/** What the render shows of the clips: the composition's length and rate, and the window a segment captures. */
export interface VideoWindow {
  /** The composition's length (frames × den / num). */
  totalSeconds: number;
  fpsText: string;
  fps: Fps;
  /** A segment's composition times (its first and last frame); the whole composition when left out. */
  window?: { from: number; to: number } | undefined;
  /** The composition being rendered, the file a finding about a clip names. */
  composition: string;
}

/** Largest in-point and start the node accepts from a page (seconds): far past any composition's limits. */
const MAX_SECONDS = 1e7;

/**
 * The clip's timing as numbers the node can use: a value that is not a finite number (or a rate outside what the
 * runtime reads, 0.1 to 10) fails the render naming the field; a negative duration or in-point (a clip whose host
 * ends before it starts) is 0, as ffmpeg would have taken it.
 */
function checkedTiming(video: VideoClip, position: number): Pick<ClipToPlan, "start" | "duration" | "mediaStart" | "playbackRate" | "ramp"> & { loop: boolean } {
  const bad = (field: string, value: unknown) => new Error(`video ${position + 1} of the composition reported an unusable ${field}: ${JSON.stringify(value) ?? String(value)}`);
  const seconds = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= MAX_SECONDS;
  if (!seconds(video.start)) throw bad("start", video.start);
  if (video.duration !== null && !seconds(video.duration)) throw bad("duration", video.duration);
  if (!seconds(video.mediaStart)) throw bad("mediaStart", video.mediaStart);
  if (!(typeof video.playbackRate === "number" && video.playbackRate >= 0.1 && video.playbackRate <= 10)) throw bad("playbackRate", video.playbackRate);
  // A speed ramp replaces the rate (the parse clamps every speed to 0.1–10). Frames are extracted at speed 1 either way.
  const ramp = typeof video.automation === "string" ? parseAutomation(video.automation, null).rate : null;
  return {
    start: video.start, duration: video.duration === null ? null : Math.max(0, video.duration), mediaStart: Math.max(0, video.mediaStart),
    playbackRate: ramp ? 1 : video.playbackRate, ramp, loop: video.loop === true,
  };
}

/** The project path of a page URL, for lines and findings. */
function pathOf(src: string): string {
  return decodeURIComponent(new URL(src).pathname).slice(1);
}

/**
 * Writes <dir>/<folder>/000001.jpg… (frame 1 = the clip's first instant) for each extraction the plan needs, and
 * returns, by video, its folder, the last frame it shows (the page holds it past its end) and a looping video's
 * cycle (its file from the in-point, at its rate), which the page starts over each time. Only the frames the
 * window shows are written, under their own numbers: a later stretch's decode still runs from the clip's start,
 * so the frames are the very ones a whole extraction writes.
 */
export async function extractVideoFrames(sources: VideoSources, shown: VideoWindow): Promise<ExtractedVideos> {
  const { tools, onLine, onFinding } = sources;
  const budget = sources.budget ?? DEFAULT_SCRATCH_BUDGET;
  const { fps, fpsText, totalSeconds, composition } = shown;
  // The whole composition: its first frame's time to its last's, computed as the capture computes frame times.
  const frameCount = Math.max(1, Math.round((totalSeconds * fps.num) / fps.den));
  const window = shown.window ?? { from: 0, to: ((frameCount - 1) * fps.den) / fps.num };
  const segment = shown.window !== undefined;
  const slots = slotsOf(sources.videos);
  const playable = new Map<string, Promise<number | null>>();
  const lengthOf = (file: string) => {
    let known = playable.get(file);
    if (!known) playable.set(file, (known = probePlayableSeconds(tools, file)));
    return known;
  };
  const clips: (ClipToPlan | null)[] = [];
  for (const [position, video] of sources.videos.entries()) {
    clips[position] = null;
    const timing = checkedTiming(video, position);
    const file = typeof video.src === "string" ? sources.toFile(video.src) : null;
    if (!file) {
      onFinding(makeFinding("media-not-project-file", composition, `video ${video.src ?? "(no src)"} is not a project file; it stays blank`));
      continue;
    }
    if (!(await isFile(file))) {
      // ffmpeg would fail the whole render on it: the clip stays blank, with the finding (a strict render fails on it).
      onFinding(missingAssetFinding({ path: pathOf(video.src!), referrer: null, status: 404 }));
      continue;
    }
    let loopSeconds: number | null = null;
    if (timing.loop) {
      const seconds = await lengthOf(file);
      if (seconds !== null && seconds > timing.mediaStart) loopSeconds = seconds - timing.mediaStart;
    }
    clips[position] = { ...timing, file, name: pathOf(video.src!), loopSeconds };
  }
  const plan = planVideoExtractions(clips, window, fps, totalSeconds);
  for (const [position, clip] of clips.entries()) {
    if (clip && plan.clips[position] === null) onLine(`video ${clip.name} is not shown in this ${segment ? "segment" : "composition"}: no frames extracted`);
  }
  // The frame budget, before any decoding: the spans as planned, and where that is over, cut at each file's end.
  let planned = plan.extractions.map((e) => spanFrames(e.spans));
  if (planned.reduce((a, b) => a + b, 0) > budget.videoFrames) {
    planned = await Promise.all(plan.extractions.map(async (e) =>
      plannedFrames(e.spans, sourceClipFrames(await lengthOf(e.file), e.mediaStart, fps))));
    const total = planned.reduce((a, b) => a + b, 0);
    if (total > budget.videoFrames) {
      const largest = plan.extractions.reduce((a, e, i) => (planned[i]! > planned[a.index]! ? { index: i } : a), { index: 0 });
      const extraction = plan.extractions[largest.index]!;
      throw new Error(frameBudgetRefusal({
        planned: total, budget: budget.videoFrames, largest: { name: extraction.name, frames: planned[largest.index]!, clips: extraction.clips.length },
      }));
    }
  }
  const use: ScratchUse = { bytes: 0, frames: 0, runs: 0 };
  const folders: string[] = [];
  try {
    const written: FrameSpan[][] = [];
    for (const extraction of plan.extractions) {
      const out = join(sources.dir, String(extraction.folder));
      folders.push(out);
      await mkdir(out, { recursive: true });
      const frames = await runExtraction({ extraction, out, tools, fps, fpsText, budget, use });
      written[extraction.folder] = frames;
      const shared = extraction.clips.length > 1 ? ` for ${extraction.clips.length} elements` : "";
      const spans = frames.map((s) => `${s.first} to ${s.last}`).join(", ");
      const where = segment && frames.length ? ` (frames ${spans} for this segment)` : "";
      onLine(`extracted ${spanFrames(frames)} frames of ${extraction.name}${shared}${where}`);
    }
    const shownBy = plan.clips.map((planned): VideoFrameSource | null => {
      if (!planned) return null;
      const extraction = plan.extractions[planned.extraction]!;
      return { folder: extraction.folder, count: heldFrame(written[extraction.folder] ?? [], planned.spans), loopSeconds: planned.loopSeconds };
    });
    const videos = slots.map((position) => (position === null ? null : (shownBy[position] ?? null)));
    return { videos, use: { ...use, folders: plan.extractions.length } };
  } catch (error) {
    // Nothing of a failed extraction stays on the node's disk (the session's folder goes too, but a caller may
    // keep its own).
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    throw error;
  }
}
