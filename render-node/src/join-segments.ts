// The last step of a render: the video files of its frame ranges (segments from any nodes, or one node's chunks)
// joined in order without re-encoding video, and the audio mixed once over the whole length.
import { stat, writeFile } from "node:fs/promises";
import { basename, join, resolve, sep } from "node:path";
import { missingAssetFinding } from "../../core/browser/missing-asset.ts";
import { formatFindingLine, makeFinding, strictFailure, type Finding } from "../../core/protocol/finding.ts";
import { buildAudioMixArgs } from "./build-audio-mix-args.ts";
import type { AudioClip } from "./build-audio-mix-args.ts";
import { buildConcatList, buildGifArgs, buildJoinArgs } from "./build-encode-args.ts";
import { parseRenderOptions } from "./parse-render-options.ts";
import type { Format, Quality } from "./parse-render-options.ts";
import type { RenderPlan } from "./plan-render.ts";
import { resolveBinaries } from "./resolve-binaries.ts";
import type { Binaries } from "./resolve-binaries.ts";
import { runTool } from "./run-tool.ts";
import { makeScratchDir, removeScratchDir } from "./scratch-dirs.ts";
import { encodeBound, stageBounds, type StageBounds } from "./stage-bounds.ts";
import { listPngFrames, writeStoredZip } from "./zip-png-sequence.ts";
import type { SessionOptions } from "./capture-options.ts";

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
}

export interface JoinResult {
  outputPath: string;
  size: number;
  frames: number;
  durationSeconds: number;
}

const isFile = (path: string): Promise<boolean> => stat(path).then((info) => info.isFile(), () => false);

/** The join itself, for a caller that already holds a scratch folder, binaries and a signal (renderProject). */
export async function joinFiles(input: {
  projectDir: string; format: Format; quality: Quality; plan: RenderPlan; files: string[]; outputPath: string; work: string;
  /** A GIF's loop count (the request's gifLoop; default 0, forever). */
  gifLoop?: number | undefined;
  strict: boolean; binaries: Binaries; bounds: StageBounds; signal: AbortSignal; onLine: (line: string) => void;
  /** Where findings go (a whole render's session keeps each once); by default each is logged as a line. */
  onFinding?: ((finding: Finding) => void) | undefined;
}): Promise<JoinResult> {
  const { binaries, signal, onLine, plan } = input;
  const onFinding = input.onFinding ?? ((finding: Finding) => onLine(formatFindingLine(finding)));
  const finishing = (stage: string) => ({ bound: { ms: encodeBound(input.bounds, plan.durationSeconds), stage } });
  const listFile = join(input.work, "segments.txt");
  await writeFile(listFile, buildConcatList(input.files));
  const what = `${input.files.length} ${input.files.length === 1 ? "chunk" : "chunks"}`;
  if (input.format === "gif") {
    // The palette needs every frame: a GIF is encoded once here, from the JPEG chunks.
    onLine(`joining ${what}; palette pass for GIF`);
    const gif = buildGifArgs({ quality: input.quality, listFile, palette: join(input.work, "palette.png"), output: input.outputPath, loop: input.gifLoop });
    await runTool(binaries.ffmpeg, gif.palette, signal, finishing("encoding: the GIF palette pass")).done;
    await runTool(binaries.ffmpeg, gif.encode, signal, finishing("encoding: the GIF")).done;
  } else {
    const clips = await playableClips(input, onFinding);
    // A png-sequence has no video stream: its sound, if any, is mixed alone into audio.m4a beside the frames.
    const sequence = input.format === "png-sequence";
    const audio = buildAudioMixArgs(clips, plan.durationSeconds, sequence ? 0 : 1);
    const mixing = audio ? `, mixing ${clips.length} audio clip${clips.length === 1 ? "" : "s"}` : "";
    if (input.format === "png-sequence") {
      onLine(`zipping ${plan.frames} PNG frames${mixing}`);
      const frames = await listPngFrames(input.files, plan.frames);
      const entries = frames.map((path) => ({ name: basename(path), path }));
      if (audio) {
        const track = join(input.work, "audio.m4a");
        const args = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...audio.inputs, "-filter_complex", audio.filter, "-map", `[${audio.outputLabel}]`, "-c:a", "aac", "-b:a", "192k", track];
        await runTool(binaries.ffmpeg, args, signal, finishing("encoding: mixing the audio")).done;
        entries.push({ name: "audio.m4a", path: track });
      }
      await writeStoredZip(entries, input.outputPath, signal);
    } else {
      onLine(`joining ${what}${mixing}`);
      const args = buildJoinArgs({ format: input.format, quality: input.quality, listFile, audio, output: input.outputPath, alpha: plan.alpha });
      await runTool(binaries.ffmpeg, args, signal, finishing(`encoding: joining the chunks${audio ? " and mixing the audio" : ""}`)).done;
    }
  }
  const size = (await stat(input.outputPath)).size;
  return { outputPath: input.outputPath, size, frames: plan.frames, durationSeconds: plan.durationSeconds };
}

/** The plan's audio clips that exist in the project and have sound, with their channel counts. */
async function playableClips(
  input: { projectDir: string; plan: RenderPlan; strict: boolean; binaries: Binaries; bounds: StageBounds; signal: AbortSignal },
  onFinding: (finding: Finding) => void,
): Promise<AudioClip[]> {
  const clips: AudioClip[] = [];
  const root = resolve(input.projectDir);
  for (const clip of input.plan.audio) {
    const file = resolve(root, clip.src);
    if (!file.startsWith(root + sep)) {
      onFinding(makeFinding("media-not-project-file", input.plan.composition, `audio ${clip.src} is not a project file; left out of the mix`));
      continue;
    }
    if (!(await isFile(file))) {
      // Normally already reported when the page asked for it; said again here in case it never did.
      const finding = missingAssetFinding({ path: clip.src, referrer: null, status: 404 });
      onFinding(finding);
      if (input.strict) throw strictFailure(finding);
      continue;
    }
    const channels = await audioChannels(input.binaries.ffprobe, file, input.signal, input.bounds);
    if (clip.kind === "video" && channels === 0) continue;
    clips.push({
      file, start: clip.start, duration: clip.duration ?? undefined, mediaStart: clip.mediaStart, volume: clip.volume, channels,
      volumeKeyframes: clip.volumeKeyframes, fadeIn: clip.fadeIn, fadeOut: clip.fadeOut,
    });
  }
  return clips;
}

/** Joins segment files into the render's output (see JoinSegmentsInput). No browser starts. */
export async function joinSegments(input: JoinSegmentsInput): Promise<JoinResult> {
  const options = parseRenderOptions({
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
    return await joinFiles({
      projectDir: input.projectDir, format: options.format, quality: options.quality, gifLoop: options.gifLoop, plan: input.plan, files: input.segmentPaths,
      outputPath: input.outputPath, work, strict: input.strict ?? input.options.strict === true, binaries, bounds: input.bounds ?? stageBounds(),
      signal: input.signal, onLine: input.onLine ?? (() => {}),
    });
  } catch (error) {
    throw input.signal.aborted ? new Error("render cancelled") : error;
  } finally {
    await removeScratchDir(work);
  }
}

/** Channels of the file's first audio stream; 0 when it has none (a silent video). */
async function audioChannels(ffprobe: string, file: string, signal: AbortSignal, bounds: StageBounds): Promise<number> {
  const args = ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels", "-of", "csv=p=0", file];
  const out = await runTool(ffprobe, args, signal, { bound: { ms: bounds.encodeMs, stage: "probing a clip's audio" } }).done;
  const channels = Number.parseInt(out.trim(), 10);
  return Number.isFinite(channels) ? channels : out.trim() ? 2 : 0;
}
