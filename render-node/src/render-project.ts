// Renders a project directory to a video file: the whole pipeline, from options to the muxed output.
import { availableParallelism } from "node:os";
import { stat, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { missingAssetLine, parseMissingAssetLine } from "../../core/browser/missing-asset.ts";
import { buildAudioMixArgs } from "./build-audio-mix-args.ts";
import type { AudioClip } from "./build-audio-mix-args.ts";
import { buildChunkArgs, buildConcatList, buildGifArgs, buildJoinArgs, ENCODER_SETTINGS } from "./build-encode-args.ts";
import type { CompositionInfo, StudioWindow } from "./composition-info.ts";
import { computeViewport } from "./compute-viewport.ts";
import { countFrames } from "./count-frames.ts";
import { extractVideoFrames } from "./extract-video-frames.ts";
import { launchCaptureBrowser } from "./launch-capture-browser.ts";
import type { CaptureBrowser, CaptureMode } from "./launch-capture-browser.ts";
import { loadComposition } from "./load-composition.ts";
import { blockedAttemptLine, limitBlockedAttempts, parseBlockedAttemptLine } from "./blocked-attempt.ts";
import { startNetworkSink } from "./network-sink.ts";
import { networkIsolationFlags } from "./network-policy.ts";
import { applyDeclaredFps, parseRenderOptions } from "./parse-render-options.ts";
import type { Format, Quality, Resolution } from "./parse-render-options.ts";
import { reportLateProblems } from "./late-problems.ts";
import { renderFrameRange } from "./render-frame-range.ts";
import { resolveBinaries } from "./resolve-binaries.ts";
import type { Binaries } from "./resolve-binaries.ts";
import { runTool } from "./run-tool.ts";
import { makeScratchDir, removeScratchDir } from "./scratch-dirs.ts";
import { serveProject } from "./serve-project.ts";
import { splitFrameRanges } from "./split-frame-ranges.ts";
import { encodeBound, stageBounds, type StageBounds } from "./stage-bounds.ts";
import { trackProgress } from "./track-progress.ts";
import type { Progress } from "./track-progress.ts";
import { seconds as inSeconds, withDeadline } from "./with-deadline.ts";

export interface RenderProjectInput {
  projectDir: string;
  /** Where the video goes; its extension is not checked, the format decides the container. */
  outputPath: string;
  /** Project-relative entry composition; default index.html. */
  composition?: string | undefined;
  quality?: Quality | undefined;
  fps?: number | string | undefined;
  format?: Format | undefined;
  resolution?: Resolution | undefined;
  /** Browsers (and chunk encoders) at once; default one per core. */
  concurrency?: number | undefined;
  /** A blocked network attempt or a missing asset fails the render (otherwise it is a finding in the log). */
  strict?: boolean | undefined;
  /** Force the screenshot path even where beginFrame works (for comparison). */
  captureMode?: CaptureMode | undefined;
  binaries?: Binaries | undefined;
  /** How long each stage may take (default: from the environment, see stage-bounds.ts). */
  bounds?: StageBounds | undefined;
  signal: AbortSignal;
  onLine?: ((line: string) => void) | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
}

export interface RenderResult {
  outputPath: string;
  size: number;
  frames: number;
  fpsText: string;
  width: number;
  height: number;
  durationSeconds: number;
  captureMode: CaptureMode;
  findings: string[];
  seconds: number;
}

const isFile = (path: string): Promise<boolean> => stat(path).then((info) => info.isFile(), () => false);

function toProjectFile(projectDir: string, origin: string, url: string): string | null {
  if (!url.startsWith(`${origin}/`)) return null;
  const relative = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, "");
  const path = resolve(projectDir, relative);
  return path.startsWith(resolve(projectDir) + sep) ? path : null;
}

/** Renders `composition` of `projectDir` into `outputPath`. Validates every option before any process starts. */
export async function renderProject(input: RenderProjectInput): Promise<RenderResult> {
  const began = performance.now();
  let options = parseRenderOptions({
    quality: input.quality, fps: input.fps, format: input.format, resolution: input.resolution, composition: input.composition,
  });
  const concurrency = input.concurrency ?? availableParallelism();
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new Error(`invalid option "concurrency": expected an integer from 1 to 32; received ${JSON.stringify(input.concurrency)}`);
  }
  const projectDir = resolve(input.projectDir);
  const entry = await stat(join(projectDir, options.composition)).catch(() => null);
  if (!entry?.isFile()) throw new Error(`composition "${options.composition}" does not exist in the project`);
  const bounds = input.bounds ?? stageBounds();
  input.signal.throwIfAborted();
  const findings: string[] = [];
  // The first blocked attempt or missing asset: a strict render fails on it.
  let blocked: string | undefined;
  const onLine = (line: string) => {
    if (blocked === undefined && (parseBlockedAttemptLine(line) || parseMissingAssetLine(line))) blocked = line.slice("finding: ".length);
    if (line.startsWith("finding: ")) {
      // Every browser loads the page: report each finding once.
      const finding = line.slice("finding: ".length);
      if (findings.includes(finding)) return;
      // A missing file is reported by the page's request (with its referrer) and again by the node before it
      // decodes a video or mixes an audio track: once per path.
      const missing = parseMissingAssetLine(line);
      if (missing && findings.some((f) => parseMissingAssetLine(`finding: ${f}`)?.path === missing.path)) return;
      findings.push(finding);
    }
    input.onLine?.(line);
  };
  const binaries = input.binaries ?? (await resolveBinaries());
  const work = await makeScratchDir("render");
  const server = await serveProject(projectDir, join(work, "video-frames"));
  // Everything the render starts stops on `signal`: a cancel from outside, or the render failing (a stage that
  // hung, an ffmpeg that broke), so no browser or ffmpeg outlives the render whichever way it ends.
  const stop = new AbortController();
  const signal = stop.signal;
  const cancel = () => stop.abort(input.signal.reason);
  input.signal.addEventListener("abort", cancel, { once: true });
  if (input.signal.aborted) cancel();
  const sinkReport = limitBlockedAttempts(onLine);
  const sink = await startNetworkSink((attempt) => sinkReport(blockedAttemptLine(attempt)));
  // Strict: the first blocked attempt or missing asset fails the render, checked after loading and after capture
  // (not per frame).
  const failIfBlocked = () => {
    if (input.strict && blocked !== undefined) throw new Error(`${blocked}; strict renders fail on it`);
  };
  const browsers: CaptureBrowser[] = [];
  const killAll = () => browsers.forEach((b) => b.kill());
  signal.addEventListener("abort", killAll, { once: true });
  try {
    onLine(`loading composition ${options.composition}`);
    const url = server.pageUrl(options.composition, "render");
    const launchOne = async (): Promise<{ browser: CaptureBrowser; info: CompositionInfo }> => {
      const browser = await launchCaptureBrowser({
        chrome: binaries.chrome, preferBeginFrame: input.captureMode !== "screenshot", width: 1920, height: 1080, onLine,
        args: networkIsolationFlags({ allowOrigin: server.origin, sinkPort: sink.port }),
      });
      browsers.push(browser);
      if (signal.aborted) killAll();
      signal.throwIfAborted();
      const info = await loadComposition(browser, url, server.origin, onLine, { bounds, waitForTimeline: true, strict: input.strict });
      return { browser, info };
    };
    // The first browser tells the duration; the others load while it is measured.
    const first = await launchOne();
    const { info } = first;
    const declared = applyDeclaredFps(options, input.fps !== undefined && input.fps !== null, info.fps);
    options = declared.options;
    if (declared.finding) onLine(`finding: ${declared.finding}`);
    if (!(info.duration > 0)) throw new Error(`composition "${info.compositionId}" has no duration: set data-duration on its root element`);
    const frames = countFrames(info.duration, options.fps);
    const viewport = computeViewport(info.width, info.height, options.resolution, options.format);
    const workers = Math.max(1, Math.min(concurrency, Math.floor(frames / 15) || 1));
    const loaded = [first, ...(await Promise.all(Array.from({ length: workers - 1 }, () => launchOne())))];
    failIfBlocked();
    const mode = first.browser.mode;
    onLine(
      `composition ${info.compositionId}: ${info.width}x${info.height}, ${info.duration} s, ${frames} frames at ${options.fpsText} fps` +
        ` → ${viewport.outputWidth}x${viewport.outputHeight} ${options.format} (${options.quality})`,
    );
    const totalSeconds = (frames * options.fps.den) / options.fps.num;
    const videoCounts = info.videos.length
      ? await extractVideoFrames({
          videos: info.videos,
          toFile: (src) => toProjectFile(projectDir, server.origin, src),
          totalSeconds,
          fpsText: options.fpsText,
          dir: join(work, "video-frames"),
          ffmpeg: binaries.ffmpeg,
          bounds,
          signal,
          onLine,
        })
      : [];
    for (const { browser } of loaded) {
      const prepare = async () => {
        await browser.session.send("Emulation.setDeviceMetricsOverride", {
          width: viewport.cssWidth, height: viewport.cssHeight, deviceScaleFactor: viewport.deviceScaleFactor, mobile: false,
        });
        await browser.page.evaluate(
          (config: Record<string, unknown>) => (window as unknown as StudioWindow).__studio.configure(config),
          { fps: [options.fps.num, options.fps.den], videoFrameUrl: "/__studio/video/{index}/{frame}.jpg", videoFrameCounts: videoCounts },
        );
      };
      await withDeadline(prepare(), bounds.frameMs, `composition ${options.composition}: preparing the page for capture did not finish in ${inSeconds(bounds.frameMs)}`);
    }
    onLine(`capturing with ${mode === "beginFrame" ? "beginFrame" : "screenshots"}, ${workers} browser${workers === 1 ? "" : "s"}`);
    const settings = ENCODER_SETTINGS[options.format][options.quality];
    const ranges = splitFrameRanges(frames, workers);
    const fit = viewport.captureWidth !== viewport.outputWidth || viewport.captureHeight !== viewport.outputHeight
      ? { width: viewport.outputWidth, height: viewport.outputHeight }
      : undefined;
    const frameDone = trackProgress(frames, (p) => input.onProgress?.(p), onLine);
    const chunks = ranges.map((_, i) => join(work, `chunk-${String(i).padStart(3, "0")}.${settings.chunkExtension}`));
    await Promise.all(
      ranges.map((range, i) =>
        renderFrameRange({
          capture: loaded[i]!.browser,
          range,
          totalFrames: frames,
          fps: options.fps,
          jpegQuality: settings.jpegQuality,
          ffmpeg: binaries.ffmpeg,
          ffmpegArgs: buildChunkArgs({
            format: options.format, quality: options.quality, fpsText: options.fpsText,
            gopFrames: Math.max(1, Math.round((2 * options.fps.num) / options.fps.den)), fit, output: chunks[i]!,
          }),
          signal,
          bounds,
          onFrame: frameDone,
        }),
      ),
    );
    // What broke after loading (a timer, a timeline callback during a seek): findings, and strict fails on them.
    await reportLateProblems(loaded.map((l) => l.browser.page), new Set(loaded.flatMap((l) => l.info.problems)), onLine, input.strict);
    await Promise.all(browsers.map((b) => b.close()));
    browsers.length = 0;
    failIfBlocked();
    const finishing = (stage: string) => ({ bound: { ms: encodeBound(bounds, totalSeconds), stage } });
    const listFile = join(work, "chunks.txt");
    await writeFile(listFile, buildConcatList(chunks));
    if (options.format === "gif") {
      onLine(`joining ${chunks.length} chunks; palette pass for GIF`);
      const gif = buildGifArgs({ quality: options.quality, listFile, palette: join(work, "palette.png"), output: input.outputPath });
      await runTool(binaries.ffmpeg, gif.palette, signal, finishing("encoding: the GIF palette pass")).done;
      await runTool(binaries.ffmpeg, gif.encode, signal, finishing("encoding: the GIF")).done;
    } else {
      const clips: AudioClip[] = [];
      for (const clip of info.audio) {
        const file = toProjectFile(projectDir, server.origin, clip.src);
        if (!file) {
          onLine(`finding: audio ${clip.src} is not a project file; left out of the mix`);
          continue;
        }
        if (!(await isFile(file))) {
          // Normally already reported when the page asked for it; said again here in case it never did.
          onLine(missingAssetLine({ path: relative(projectDir, file).split(sep).join("/"), referrer: null, status: 404 }));
          failIfBlocked();
          continue;
        }
        const channels = await audioChannels(binaries.ffprobe, file, signal, bounds);
        if (clip.kind === "video" && channels === 0) continue;
        clips.push({ file, start: clip.start, duration: clip.duration ?? undefined, mediaStart: clip.mediaStart, volume: clip.volume, channels });
      }
      const audio = buildAudioMixArgs(clips, totalSeconds);
      onLine(`joining ${chunks.length} chunks${audio ? `, mixing ${clips.length} audio clip${clips.length === 1 ? "" : "s"}` : ""}`);
      const args = buildJoinArgs({ format: options.format, quality: options.quality, listFile, audio, output: input.outputPath });
      await runTool(binaries.ffmpeg, args, signal, finishing(`encoding: joining the chunks${audio ? " and mixing the audio" : ""}`)).done;
    }
    const size = (await stat(input.outputPath)).size;
    const seconds = (performance.now() - began) / 1000;
    onLine(`done: ${frames} frames in ${seconds.toFixed(1)} s (${(frames / seconds).toFixed(1)} frames/s overall), ${(size / 1e6).toFixed(2)} MB`);
    return {
      outputPath: input.outputPath, size, frames, fpsText: options.fpsText,
      width: viewport.outputWidth, height: viewport.outputHeight, durationSeconds: totalSeconds,
      captureMode: mode, findings, seconds,
    };
  } catch (error) {
    // The failure is reported once, by whoever reports the render's end (the Worker's log line "render failed:
    // <message>"); only a cancel is a line of the render's own.
    if (input.signal.aborted) onLine("render cancelled");
    if (!signal.aborted) stop.abort(error);
    throw input.signal.aborted ? new Error("render cancelled") : error;
  } finally {
    input.signal.removeEventListener("abort", cancel);
    signal.removeEventListener("abort", killAll);
    // A render that ended early kills at once (a hung page would not close); a finished one closes its browsers.
    if (signal.aborted) killAll();
    else await Promise.all(browsers.map((b) => b.close()));
    await sink.close();
    await server.close();
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
