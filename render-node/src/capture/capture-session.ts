// One loaded composition ready to be captured: the project served, the network sink up, the first browser loaded,
// the frame rate and frame count settled. planRender, renderSegment and renderProject all start here, so a plan
// made on one node and a segment rendered on another read the composition the same way.
import { stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { formatFindingLine, makeFinding, strictFailure, type Finding } from "../../../core/protocol/finding.ts";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";
import { blockedAttemptFinding, limitBlockedAttempts } from "../browser/blocked-attempt.ts";
import type { CompositionInfo } from "../../../page-runtime/api.ts";
import { computeViewport } from "../plan/compute-viewport.ts";
import type { Viewport } from "../plan/compute-viewport.ts";
import { extractVideoFrames, type ExtractedVideos } from "../media/extract-video-frames.ts";
import { launchCaptureBrowser } from "../browser/launch-capture-browser.ts";
import type { CaptureBrowser, CaptureMode } from "../browser/launch-capture-browser.ts";
import { loadComposition } from "../browser/load-composition.ts";
import { startNetworkSink } from "../browser/network-sink.ts";
import { networkIsolationFlags } from "../browser/network-policy.ts";
import { applyDeclaredFps, countFrames, frameTime, resolveRender, type ResolvedRender } from "../plan/resolve-render.ts";
import { checkRenderVariables } from "../plan/check-render-variables.ts";
import { refuseOversizedFile, refuseOversizedInfo, refusePngSequenceLength } from "../plan/refuse-oversized-composition.ts";
import { rendersWithAlpha } from "../browser/page-background.ts";
import { planGain, sampleVolumeAutomation } from "../browser/sample-volume-automation.ts";
import type { FrameDone } from "./render-frame-range.ts";
import { captureChunks } from "./capture-chunks.ts";
import { prepareCapturePage } from "../browser/prepare-capture-page.ts";
import { resolveBinaries } from "../system/resolve-binaries.ts";
import { makeScratchDir, removeScratchDir } from "../system/scratch-dirs.ts";
import { serveProject } from "../browser/serve-project.ts";
import type { FrameRange } from "./split-frame-ranges.ts";
import { startTimeline, type Timeline } from "../progress/render-timeline.ts";
import { DEFAULT_STAGE_BOUNDS } from "../bounds/stage-bounds.ts";
import { DEFAULT_SCRATCH_BUDGET } from "../media/scratch-budget.ts";
import { browsersFor, type SessionInput } from "./capture-options.ts";
import { readShaderTransitions } from "./shader-transitions/read-shader-transitions.ts";
import { isNotFound, logDebug } from "../system/debug-log.ts";
import { settled as ended } from "../../../core/settled.ts";
import { stageTools, type StageTools } from "../system/stage-tools.ts";


export interface CaptureSession {
  /** Options with the frame rate settled (the request's fps, else the root's data-fps, else 30). */
  options: ResolvedRender;
  info: CompositionInfo;
  frames: number;
  /** frames × den / num: the video's exact length. */
  totalSeconds: number;
  viewport: Viewport;
  /** Frames keep their alpha (page-background.ts): PNG capture and alpha encoders. */
  alpha: boolean;
  mode: CaptureMode;
  /** Every finding so far, each once (the log shows each as a `finding:` line). */
  findings: Finding[];
  /** The session's binaries, bounds and signal, with its ffmpeg runs and bounded awaits: what each stage is handed. */
  tools: StageTools;
  projectDir: string;
  /** Scratch folder of the session, removed when it ends. */
  work: string;
  /** Stops on the caller's cancel and on any failure of the session. */
  signal: AbortSignal;
  onLine: (line: string) => void;
  onFinding: (finding: Finding) => void;
  /** The stages so far, with their times and how busy the cores were (render-timeline.ts). */
  timeline: Timeline;
  /** Throws the first blocked attempt or missing asset of a strict render. */
  failIfBlocked(): void;
  plan(): RenderPlan;
  /**
   * Captures frames [range.start, range.end) with up to `concurrency` browsers, each encoding its share into a
   * closed-GOP chunk (keyframe on its first frame). Returns the chunk files in order; closes the browsers.
   */
  capture(range: FrameRange, concurrency: number, onFrame: (frame: FrameDone) => void): Promise<string[]>;
}

/** A page URL of the project server as a project-relative path, or null when it is not a project file. */
export function projectPathOf(projectDir: string, origin: string, url: string): string | null {
  if (!url.startsWith(`${origin}/`)) return null;
  const path = resolve(projectDir, decodeURIComponent(new URL(url).pathname).replace(/^\/+/, ""));
  return path.startsWith(resolve(projectDir) + sep) ? relative(projectDir, path).split(sep).join("/") : null;
}

/**
 * Opens a session, runs `use` with it, and always ends it: browsers killed or closed, sink and server stopped,
 * scratch folder removed. A cancel from outside fails with "render cancelled" (and the line "render cancelled").
 */
export async function withCaptureSession<T>(input: SessionInput, use: (session: CaptureSession) => Promise<T>): Promise<T> {
  const raw = Object.fromEntries(Object.entries(input.options).filter(([, v]) => v !== undefined && v !== null));
  let options = resolveRender({
    quality: raw["quality"], fps: raw["fps"], format: raw["format"], resolution: raw["resolution"], composition: raw["composition"],
    variables: raw["variables"], strictVariables: raw["strictVariables"],
    crf: raw["crf"], videoBitrate: raw["videoBitrate"], gifLoop: raw["gifLoop"],
  });
  // Strict as a parameter, else as the API's option (the job's options carry it).
  const strict = input.strict ?? raw["strict"] === true;
  const projectDir = resolve(input.projectDir);
  const entry = await stat(join(projectDir, options.composition)).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!entry?.isFile()) throw new Error(`composition "${options.composition}" does not exist in the project`);
  await refuseOversizedFile(projectDir, options.composition, { fps: options.fpsGiven ? options.fpsText : null, format: options.format });
  const variableFindings = await checkRenderVariables(projectDir, options);
  const bounds = input.bounds ?? DEFAULT_STAGE_BOUNDS;
  const budget = input.scratchBudget ?? DEFAULT_SCRATCH_BUDGET;
  const timeline = input.timeline ?? startTimeline();
  const endLoading = timeline.begin("loading");
  input.signal.throwIfAborted();
  const findings: Finding[] = [];
  // The first blocked attempt, missing asset or invalid page report (one raised mid-capture too, a forged
  // seekFrame answer): a strict render fails on it.
  let blocked: Finding | undefined;
  const onLine = (line: string) => input.onLine?.(line);
  const onFinding = (finding: Finding) => {
    if (blocked === undefined && (finding.code === "request-blocked" || finding.code === "missing-asset" || finding.code === "page-report-invalid")) blocked = finding;
    // Every browser loads the page: report each finding once.
    if (findings.some((f) => f.message === finding.message)) return;
    // A missing file is reported by the page's request (with its referrer) and again by the node before it
    // decodes a video or mixes an audio track: once per path.
    if (finding.code === "missing-asset" && findings.some((f) => f.code === "missing-asset" && f.asset === finding.asset)) return;
    findings.push(finding);
    onLine(formatFindingLine(finding));
  };
  const binaries = input.binaries ?? (await resolveBinaries());
  const work = await makeScratchDir("render");
  // Everything the session starts stops on `signal`: a cancel from outside, or the render failing (a stage that
  // hung, an ffmpeg that broke), so no browser or ffmpeg outlives the render whichever way it ends.
  const stop = new AbortController();
  const signal = stop.signal;
  const tools = stageTools(binaries, bounds, signal);
  const cancel = () => stop.abort(input.signal.reason);
  input.signal.addEventListener("abort", cancel, { once: true });
  if (input.signal.aborted) cancel();
  const browsers: CaptureBrowser[] = [];
  const killAll = () => browsers.forEach((b) => b.kill());
  signal.addEventListener("abort", killAll, { once: true });
  let server: Awaited<ReturnType<typeof serveProject>> | undefined;
  let spares: Promise<{ browser: CaptureBrowser; info: CompositionInfo }>[] = [];
  let ending = false;
  let sink: Awaited<ReturnType<typeof startNetworkSink>> | undefined;
  try {
    server = await serveProject(projectDir, join(work, "video-frames"));
    const sinkReport = limitBlockedAttempts(onFinding, onLine);
    sink = await startNetworkSink((attempt) => sinkReport(blockedAttemptFinding(attempt, options.composition)));
    const origin = server.origin;
    const sinkPort = sink.port;
    const url = server.pageUrl(options.composition, "render");
    const failIfBlocked = () => {
      if (strict && blocked !== undefined) throw strictFailure(blocked);
    };
    const launchOne = async (): Promise<{ browser: CaptureBrowser; info: CompositionInfo }> => {
      const browser = await launchCaptureBrowser({
        chrome: binaries.chrome, preferBeginFrame: input.captureMode !== "screenshot", width: 1920, height: 1080, onLine,
        args: networkIsolationFlags({ allowOrigin: origin, sinkPort }),
      });
      browsers.push(browser);
      if (signal.aborted || ending) killAll();
      signal.throwIfAborted();
      const info = await loadComposition(browser, url, origin, { onLine, onFinding }, { bounded: tools, waitForTimeline: true, strict, variables: options.variables });
      return { browser, info };
    };
    for (const finding of variableFindings) onFinding(finding);
    onLine(`loading composition ${options.composition}`);
    // The first browser tells the duration. Spares load meanwhile; a failure of theirs counts only if one is used.
    spares = Array.from({ length: Math.min(31, Math.max(0, input.prelaunch ?? 0)) }, () => {
      const launching = launchOne();
      void ended(launching); // awaited where it is used; unused, its failure does not count
      return launching;
    });
    const first = await launchOne();
    endLoading();
    const { info } = first;
    const declared = applyDeclaredFps(options, options.fpsGiven, info.fps);
    options = declared.options;
    if (declared.finding) onFinding(makeFinding("fps-not-a-rate", options.composition, declared.finding, { selector: `[data-composition-id="${info.compositionId}"]` }));
    if (!(info.duration > 0)) throw new Error(`composition "${info.compositionId}" has no duration: set data-duration on its root element`);
    const frames = countFrames(info.duration, options.fps);
    refuseOversizedInfo(info, options.composition, options.fps.num / options.fps.den);
    const viewport = computeViewport(info.width, info.height, options.resolution, options.format);
    const totalSeconds = (frames * options.fps.den) / options.fps.num;
    refusePngSequenceLength(options.format, frames);
    const alpha = await rendersWithAlpha(options.format, first.browser, info, { file: options.composition, onFinding });
    // Gains a script changes over time, sampled from the timeline now (before any capture seeks it).
    const volumes = await sampleVolumeAutomation(first.browser, info, { fps: options.fps.num / options.fps.den, totalSeconds, bounded: tools, composition: options.composition, onFinding });
    onLine(
      `composition ${info.compositionId}: ${info.width}x${info.height}, ${info.duration} s, ${frames} frames at ${options.fpsText} fps` +
        ` → ${viewport.outputWidth}x${viewport.outputHeight} ${options.format} (${options.quality})${alpha ? " with alpha" : ""}`,
    );
    // Shader transitions the page declared (HyperShader.init): read once; what cannot be drawn is a finding.
    const transitions = await readShaderTransitions(first.browser.page, options.composition, onFinding, strict);
    let extractedVideos: Promise<ExtractedVideos> | undefined;
    const settled = options;
    const session: CaptureSession = {
      options: settled, info, frames, totalSeconds, viewport, alpha, mode: first.browser.mode, findings, tools, projectDir, work,
      signal, onLine, onFinding, failIfBlocked, timeline,
      plan: () => ({
        composition: settled.composition, frames, fps: { ...settled.fps }, fpsText: settled.fpsText, durationSeconds: totalSeconds,
        width: viewport.outputWidth, height: viewport.outputHeight, alpha,
        audio: info.audio.flatMap((clip, i) => {
          const path = projectPathOf(projectDir, origin, clip.src);
          if (path === null) {
            onFinding(makeFinding("media-not-project-file", settled.composition, `audio ${clip.src} is not a project file; left out of the mix`));
            return [];
          }
          return [{
            src: path, start: clip.start, duration: clip.duration, mediaStart: clip.mediaStart, volume: clip.volume, kind: clip.kind,
            ...(clip.playbackRate !== 1 ? { playbackRate: clip.playbackRate } : {}), ...planGain(clip, volumes[i]),
          }];
        }),
        findings: [...findings],
      }),
      capture: async (range, concurrency, onFrame) => {
        const workers = browsersFor(range.end - range.start, concurrency);
        const ready = spares.splice(0, workers - 1);
        // Spares this range does not need are stopped now, so their cores go to the capture.
        for (const spare of spares.splice(0)) {
          // A spare that failed to start is not used, so its failure does not count (see above).
          void spare.then(({ browser }) => browser.kill(), (error: unknown) => logDebug("an unused spare browser had failed to start", error));
        }
        const more = Array.from({ length: workers - 1 - ready.length }, () => launchOne());
        // Every <video> is decoded once per session, into frames the page shows while seeking; the decoding runs
        // while the browsers start.
        extractedVideos ??= timeline.time("decoding videos", info.videos.length
          ? extractVideoFrames({
              videos: info.videos,
              toFile: (src) => {
                const path = projectPathOf(projectDir, origin, src);
                return path === null ? null : join(projectDir, path);
              },
              totalSeconds, fpsText: settled.fpsText, dir: join(work, "video-frames"), tools, onLine, onFinding,
              composition: settled.composition, budget,
              // Each clip's frames are those the range shows (a whole render: the composition's).
              fps: settled.fps,
              window: range.start === 0 && range.end === frames ? undefined : { from: frameTime(range.start, settled.fps), to: frameTime(range.end - 1, settled.fps) },
            })
          : Promise.resolve({ videos: [], use: { bytes: 0, frames: 0, runs: 0, folders: 0 } }));
        // Its failure is seen where it is awaited, unless the browsers fail first.
        void ended(extractedVideos);
        // Each page is readied for capture as soon as it has loaded (and the videos are decoded), the first one
        // while the others still load.
        const prepared = async (load: Promise<{ browser: CaptureBrowser; info: CompositionInfo }>) => {
          const loadedOne = await load;
          const videos = await extractedVideos!;
          await prepareCapturePage(loadedOne.browser, { viewport, fps: settled.fps, videos, composition: settled.composition, bounded: tools, alpha });
          return loadedOne;
        };
        const loaded = await timeline.time("starting browsers", Promise.all([Promise.resolve(first), ...ready, ...more].map(prepared)));
        failIfBlocked();
        const chunks = await captureChunks({
          loaded, range, frames, options: settled, viewport, alpha, reuse: input.frameReuse ?? true, transitions, strict,
          work, tools, timeline, onLine, onFinding, onFrame,
        });
        browsers.length = 0;
        failIfBlocked();
        return chunks;
      },
    };
    return await use(session);
  } catch (error) {
    // The failure is reported once, by whoever reports the render's end (the Worker's log line "render failed:
    // <message>"); only a cancel is a line of the render's own.
    if (input.signal.aborted) onLine("render cancelled");
    if (!signal.aborted) stop.abort(error);
    throw input.signal.aborted ? new Error("render cancelled") : error;
  } finally {
    input.signal.removeEventListener("abort", cancel);
    // Browsers are killed, not closed: a render that ended early must not wait on a hung page, and a finished one
    // keeps nothing in them. A spare still starting is killed the moment it has started.
    ending = true;
    killAll();
    await Promise.allSettled(spares);
    signal.removeEventListener("abort", killAll);
    await sink?.close();
    await server?.close();
    await removeScratchDir(work);
  }
}
