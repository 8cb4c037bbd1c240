// The last step of a render: the video files of its frame ranges (segments from any nodes, or one node's chunks)
// joined in order with the audio track (mixed once over the whole length), copied, nothing encoded again.
import { stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { formatFindingLine } from "../../core/protocol/finding.ts";
import { isFile } from "./system/is-file.ts";
import { mixAudioTrack, type AudioTrack } from "./media/mix-audio-track.ts";
import { buildConcatList, buildGifArgs, buildJoinArgs } from "./encode/build-encode-args.ts";
import { resolveRender } from "./plan/resolve-render.ts";
import type { Format, Quality } from "../../core/render/render-options.ts";
import type { RenderPlan } from "./plan-render.ts";
import { resolveBinaries } from "./system/resolve-binaries.ts";
import type { Binaries } from "./system/resolve-binaries.ts";
import { stageTools, type StageTools } from "./system/stage-tools.ts";
import { makeScratchDir, removeScratchDir } from "./system/scratch-dirs.ts";
import { DEFAULT_STAGE_BOUNDS, encodeBound, type StageBounds } from "./bounds/stage-bounds.ts";
import { listPngFrames, writeStoredZip } from "./encode/zip-png-sequence.ts";
import type { SessionOptions } from "./capture/capture-options.ts";

export interface JoinSegmentsInput {
  projectDir: string;
  /** Format and quality decide the container and the audio codec; the plan decides everything else. */
  options: SessionOptions;
  plan: RenderPlan;
  /** Segment files in frame order, each from renderSegment (or chunks of the same format). */
  segmentPaths: string[];
  outputPath: string;
  strict?: boolean | undefined;
  binaries?: Binaries | undefined;
  bounds?: StageBounds | undefined;
  signal: AbortSignal;
  onLine?: ((line: string) => void) | undefined;
  /** The sound, already mixed (runJoinJob mixes it while the segments download); by default it is mixed here. */
  audio?: AudioTrack | null | undefined;
}

export interface JoinResult {
  outputPath: string;
  size: number;
  frames: number;
  durationSeconds: number;
}

/**
 * The join itself, for a caller that already holds a scratch folder, binaries, a signal and the mixed audio track
 * (renderProject mixes it during the capture; joinSegments just before): a pure remux, nothing is encoded again.
 */
export async function joinFiles(input: {
  format: Format; quality: Quality; plan: RenderPlan; files: string[]; outputPath: string; work: string;
  /** The mixed sound (mix-audio-track.ts), or null for a silent output. */
  audio: AudioTrack | null;
  /** A GIF's loop count (the request's gifLoop; default 0, forever). */
  gifLoop?: number | undefined;
  /** ffmpeg, the bounds and the job's signal. */
  tools: StageTools; onLine: (line: string) => void;
}): Promise<JoinResult> {
  const { tools, onLine, plan, audio } = input;
  const finishing = (stage: string) => ({ bound: { ms: encodeBound(tools.bounds, plan.durationSeconds), stage } });
  const listFile = join(input.work, "segments.txt");
  await writeFile(listFile, buildConcatList(input.files));
  const what = `${input.files.length} ${input.files.length === 1 ? "chunk" : "chunks"}`;
  const withAudio = audio ? `, with ${audio.clips} audio clip${audio.clips === 1 ? "" : "s"} mixed` : "";
  if (input.format === "gif") {
    // The palette needs every frame: a GIF is encoded once here, from the JPEG chunks.
    onLine(`joining ${what}; palette pass for GIF`);
    const gif = buildGifArgs({ quality: input.quality, listFile, palette: join(input.work, "palette.png"), output: input.outputPath, loop: input.gifLoop });
    await tools.run(tools.binaries.ffmpeg, gif.palette, finishing("encoding: the GIF palette pass")).done;
    await tools.run(tools.binaries.ffmpeg, gif.encode, finishing("encoding: the GIF")).done;
  } else if (input.format === "png-sequence") {
    // A png-sequence has no video stream: its sound, if any, is audio.m4a beside the frames.
    onLine(`zipping ${plan.frames} PNG frames${withAudio}`);
    const frames = await listPngFrames(input.files, plan.frames);
    const entries = frames.map((path) => ({ name: basename(path), path }));
    if (audio) entries.push({ name: basename(audio.path), path: audio.path });
    await writeStoredZip(entries, input.outputPath, tools.signal);
  } else {
    onLine(`joining ${what}${withAudio}`);
    const args = buildJoinArgs({ format: input.format, quality: input.quality, listFile, audio: audio?.path ?? null, output: input.outputPath, alpha: plan.alpha });
    await tools.run(tools.binaries.ffmpeg, args, finishing("encoding: joining the chunks")).done;
  }
  const size = (await stat(input.outputPath)).size;
  return { outputPath: input.outputPath, size, frames: plan.frames, durationSeconds: plan.durationSeconds };
}

/** Joins segment files into the render's output (see JoinSegmentsInput). No browser starts. */
export async function joinSegments(input: JoinSegmentsInput): Promise<JoinResult> {
  const options = resolveRender({
    quality: input.options.quality ?? undefined, format: input.options.format ?? undefined, gifLoop: input.options.gifLoop ?? undefined,
  });
  if (input.segmentPaths.length === 0) throw new Error("joining a render needs at least one segment");
  for (const path of input.segmentPaths) {
    if (!(await isFile(path))) throw new Error(`segment file ${path} does not exist`);
  }
  input.signal.throwIfAborted();
  const binaries = input.binaries ?? (await resolveBinaries());
  const work = await makeScratchDir("join");
  try {
    const tools = stageTools(binaries, input.bounds ?? DEFAULT_STAGE_BOUNDS, input.signal);
    const onLine = input.onLine ?? (() => {});
    const audio = input.audio !== undefined ? input.audio : await mixAudioTrack({
      projectDir: input.projectDir, format: options.format, quality: options.quality, plan: input.plan, work,
      strict: input.strict ?? input.options.strict === true, tools, onLine,
      onFinding: (finding) => onLine(formatFindingLine(finding)),
    });
    return await joinFiles({
      format: options.format, quality: options.quality, gifLoop: options.gifLoop, plan: input.plan, files: input.segmentPaths,
      outputPath: input.outputPath, work, audio, tools, onLine,
    });
  } catch (error) {
    throw input.signal.aborted ? new Error("render cancelled") : error;
  } finally {
    await removeScratchDir(work);
  }
}
