// The plan: load the composition once and say what it is (frames, rate, size, alpha, audio), so the Worker can
// split it into segments that any node renders the same way, and the capture knows what to capture.
// planComposition is the pipeline's first stage (render-pipeline.ts, render-segment.ts); planRender the farm's
// first step alone.
import { makeFinding } from "../../core/protocol/finding.ts";
import { settlePosterMoment } from "../../core/composition/poster-time.ts";
import type { RenderPlan } from "../../core/protocol/render-plan.ts";
import type { CompositionInfo } from "../../page-runtime/api.ts";
import type { CaptureMode } from "./browser/launch-capture-browser.ts";
import type { Binaries } from "./system/resolve-binaries.ts";
import type { StageBounds } from "./bounds/stage-bounds.ts";
import { withCaptureSession, type CaptureSession, type LoadedBrowser, type PageToLoad } from "./capture/capture-session.ts";
import { resolveRequest, type SessionOptions } from "./capture/capture-options.ts";
import type { ResolvedRender } from "./plan/resolve-render.ts";
import { checkCompositionFile } from "./plan/check-composition-file.ts";
import { settleRender, type Viewport } from "./plan/settle-render.ts";
import { rendersWithAlpha } from "./browser/page-background.ts";
import { planGain, sampleVolumeAutomation } from "./browser/sample-volume-automation.ts";
import { planSpeedRamp } from "./media/plan-speed-ramp.ts";
import { planEffects } from "./media/plan-effects.ts";
import { readShaderTransitions } from "./capture/shader-transitions/read-shader-transitions.ts";
import type { TransitionSetup } from "./capture/shader-transitions/transition-plan.ts";

export type { RenderPlan };

/** What the plan settled: the Worker's RenderPlan, and what the capture needs of the loaded page besides. */
export interface PlannedRender {
  plan: RenderPlan;
  /** The request's options with the frame rate settled (the request's fps, else the root's data-fps, else 30). */
  options: ResolvedRender;
  /** The composition's own frames (the page's clock); plan.frames is the output's (a range's when from/to). */
  compositionFrames: number;
  /** The page every further browser loads, and the first browser, loaded. */
  page: PageToLoad;
  first: LoadedBrowser;
  info: CompositionInfo;
  viewport: Viewport;
  /** Frames keep their alpha (page-background.ts): PNG capture and alpha encoders. */
  alpha: boolean;
  /** The composition's shader transitions (HyperShader.init), or null. */
  transitions: TransitionSetup | null;
}

/**
 * Loads the composition in the session's first browser (`spares` more start loading it meanwhile, for the
 * capture) and settles the plan. Checks the request against the project before any browser starts.
 */
export async function planComposition(request: ResolvedRender, session: CaptureSession, spares = 0): Promise<PlannedRender> {
  const { projectDir, onLine, onFinding } = session;
  const composition = request.composition;
  const { variableFindings, declaredPosterTime } = await checkCompositionFile(projectDir, request);
  const endLoading = session.timeline.begin("loading");
  for (const finding of variableFindings) onFinding(finding);
  onLine(`loading composition ${composition}`);
  const page: PageToLoad = { url: session.pageUrl(composition), strict: request.strict, variables: request.variables };
  // The first browser tells the duration. Spares load meanwhile; a failure of theirs counts only if one is used.
  session.preload(page, spares);
  const first = await session.load(page);
  endLoading();
  const { info } = first;
  // The rate, frames, limits and viewport, settled on what the page reported (before any frame is captured).
  const { options, frames, firstFrame, compositionFrames, viewport } = settleRender(request, info, onFinding);
  const totalSeconds = (compositionFrames * options.fps.den) / options.fps.num;
  const durationSeconds = (frames * options.fps.den) / options.fps.num;
  // The poster's moment, settled with the output's frames: the node that makes the poster takes it from the plan.
  const poster = settlePosterMoment(declaredPosterTime, { frames, fps: options.fps.num / options.fps.den, durationSeconds, firstFrame });
  const alpha = await rendersWithAlpha(options.format, first.browser, info, { file: composition, onFinding });
  // Gains a script changes over time, sampled from the timeline now (before any capture seeks it).
  const volumes = await sampleVolumeAutomation(first.browser, info, { fps: options.fps.num / options.fps.den, totalSeconds, bounded: session.tools, composition, onFinding });
  onLine(
    `composition ${info.compositionId}: ${info.width}x${info.height}, ${info.duration} s, ${frames} frames at ${options.fpsText} fps` +
      ` → ${viewport.outputWidth}x${viewport.outputHeight} ${options.format} (${options.quality})${alpha ? " with alpha" : ""}` +
      (frames === compositionFrames ? "" : `, frames ${firstFrame + 1} to ${firstFrame + frames} only (from/to)`),
  );
  // Shader transitions the page declared (HyperShader.init): read once; what cannot be drawn is a finding.
  const transitions = await readShaderTransitions(first.browser.page, composition, onFinding, request.strict);
  const audio = info.audio.flatMap((clip, i): RenderPlan["audio"] => {
    const path = session.projectPath(clip.src);
    if (path === null) {
      onFinding(makeFinding("media-not-project-file", composition, `audio ${clip.src} is not a project file; left out of the mix`));
      return [];
    }
    return [{
      src: path, start: clip.start, duration: clip.duration, mediaStart: clip.mediaStart, volume: clip.volume, kind: clip.kind,
      ...(clip.playbackRate !== 1 ? { playbackRate: clip.playbackRate } : {}), ...planSpeedRamp(clip), ...planGain(clip, volumes[i]), ...planEffects(clip),
    }];
  });
  const plan: RenderPlan = {
    composition, frames, ...(firstFrame > 0 ? { firstFrame } : {}), fps: { ...options.fps }, fpsText: options.fpsText,
    durationSeconds, poster,
    width: viewport.outputWidth, height: viewport.outputHeight, alpha, audio, findings: [...session.findings],
  };
  return { plan, options, compositionFrames, page, first, info, viewport, alpha, transitions };
}

export interface PlanRenderInput {
  projectDir: string;
  options: SessionOptions;
  binaries?: Binaries | undefined;
  bounds?: StageBounds | undefined;
  strict?: boolean | undefined;
  captureMode?: CaptureMode | undefined;
  signal: AbortSignal;
  onLine?: ((line: string) => void) | undefined;
}

/** Loads the composition in one browser and returns its plan; nothing is captured. */
export function planRender(input: PlanRenderInput): Promise<RenderPlan> {
  const request = resolveRequest(input.options, input.strict);
  return withCaptureSession(input, async (session) => {
    const { plan } = await planComposition(request, session);
    session.failIfBlocked(request.strict);
    return plan;
  });
}
