// A render's options as the node renders them: the API's RenderOptions (core/render/render-options.ts, the schema
// the Worker validated the request with, parsed again here from the job) with what the pipeline derives from them:
// the frame rate as an exact fraction and the text ffmpeg gets for it, and from that the frame count. One type of
// options in the whole studio; ResolvedRender only adds the derived fields.
import {
  GIF_DEFAULTS,
  parseRenderOptions,
  type RenderOptions,
} from "../../../core/render/render-options.ts";

/** A frame rate as an exact fraction, e.g. { num: 30000, den: 1001 }. */
export interface Fps {
  num: number;
  den: number;
}

/** The API's options a render reads, with the frame rate settled and the defaults filled. */
export interface ResolvedRender extends Pick<RenderOptions, "quality" | "format" | "composition" | "strict" | "strictVariables"> {
  fps: Fps;
  /** The fps exactly as ffmpeg should read it: "30" or "30000/1001". */
  fpsText: string;
  /** Whether the request named an fps (otherwise the root's data-fps may decide). */
  fpsGiven: boolean;
  resolution: NonNullable<RenderOptions["resolution"]> | undefined;
  variables: RenderOptions["variables"] | undefined;
  crf?: number | undefined;
  videoBitrate?: string | undefined;
  gifLoop?: number | undefined;
}

export const DEFAULT_FPS = 30;

export class RenderOptionError extends Error {
  readonly option: string;
  constructor(option: string, message: string) {
    super(message);
    this.name = "RenderOptionError";
    this.option = option;
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The validated fps (an integer or "num/den") as a reduced fraction; null is the format's default. */
function toFraction(fps: RenderOptions["fps"], format: RenderOptions["format"]): Fps {
  if (fps === null) return { num: format === "gif" ? GIF_DEFAULTS.fps : DEFAULT_FPS, den: 1 };
  const [num, den] = typeof fps === "number" ? [fps, 1] : fps.split("/").map(Number);
  const d = gcd(num ?? DEFAULT_FPS, den ?? 1) || 1;
  return { num: (num ?? DEFAULT_FPS) / d, den: (den ?? 1) / d };
}

/** "30" for whole rates, "30000/1001" otherwise: the text ffmpeg gets for -r and -framerate. */
export function formatFps(fps: Fps): string {
  return fps.den === 1 ? String(fps.num) : `${fps.num}/${fps.den}`;
}

/** Validates raw render options (core's schema) and fills the defaults. Throws RenderOptionError naming the option. */
export function resolveRender(raw: unknown): ResolvedRender {
  const input = raw === undefined || raw === null ? {} : raw;
  const defined =
    typeof input === "object" && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
      : input;
  const result = parseRenderOptions(defined);
  if (!result.ok) {
    const option = /^invalid (\w+)/.exec(result.error)?.[1] ?? /^unknown render option (\w+)/.exec(result.error)?.[1] ?? "options";
    throw new RenderOptionError(option, result.error);
  }
  const { quality, format, fps, resolution, composition, strict, variables, strictVariables, crf, videoBitrate, gifLoop } = result.options;
  const fraction = toFraction(fps, format);
  return {
    quality, format, fps: fraction, fpsText: formatFps(fraction), fpsGiven: fps !== null, resolution: resolution ?? undefined, composition, strict,
    variables, strictVariables, crf, videoBitrate, gifLoop,
  };
}

/**
 * The frame rate a render uses: an explicit `fps` option wins; without one, the root's `data-fps` decides (as in
 * HyperFrames), else 30. A GIF takes the root's `data-fps` only below GIF_DEFAULTS.fps. Returns the options to render with and, for a `data-fps` that is not a valid rate, a
 * finding that says so (the default is kept).
 */
export function applyDeclaredFps(
  options: ResolvedRender,
  fpsGiven: boolean,
  declared: string | null,
): { options: ResolvedRender; finding?: string } {
  if (fpsGiven || declared === null || declared.trim() === "") return { options };
  try {
    const { fps, fpsText } = resolveRender({ fps: declared.trim() });
    if (options.format === "gif" && fps.num / fps.den >= GIF_DEFAULTS.fps) return { options };
    return { options: { ...options, fps, fpsText } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { options, finding: `data-fps="${declared}" on the root is not a frame rate (${reason}); rendered at ${options.fpsText} fps` };
  }
}

/**
 * How many frames a composition of a given duration has at a given frame rate. Rule: frames = round(duration ×
 * num / den), at least 1. Rounding (not flooring) keeps the video within half a frame of the composition's
 * duration: 2 s at 30 fps = 60 frames; 2 s at 30000/1001 = round(59.94) = 60 frames (2.002 s); 1.5 s at 24 = 36.
 * A tiny tolerance absorbs float noise such as 0.1 × 30 = 3.0000000000000004. Frame i is captured at frameTime(i).
 */
export function countFrames(durationSeconds: number, fps: Fps): number {
  const exact = (durationSeconds * fps.num) / fps.den;
  return Math.max(1, Math.round(exact - 1e-9));
}

/** The composition time of frame `index`, in seconds. */
export function frameTime(index: number, fps: Fps): number {
  return (index * fps.den) / fps.num;
}
