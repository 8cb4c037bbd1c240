// The render node reads options with the very schema the Worker validates requests with (core/render), and adds
// what the pipeline needs on top: the frame rate as an exact fraction, and the text ffmpeg gets for it.
import {
  FORMAT_CONTENT_TYPES,
  FORMATS,
  GIF_DEFAULTS,
  parseRenderOptions as parseApiOptions,
  QUALITIES,
  RESOLUTIONS,
  type Format,
  type Quality,
  type Resolution,
} from "../../../core/render/render-options.ts";

export { FORMAT_CONTENT_TYPES, FORMATS, GIF_DEFAULTS, QUALITIES, type Format, type Quality, type Resolution };

/** Output size of each resolution preset, in pixels. */
export const RESOLUTION_SIZES: Record<Resolution, { width: number; height: number }> = RESOLUTIONS;

/** A frame rate as an exact fraction, e.g. { num: 30000, den: 1001 }. */
export interface Fps {
  num: number;
  den: number;
}

export interface RenderOptions {
  quality: Quality;
  format: Format;
  fps: Fps;
  /** The fps exactly as ffmpeg should read it: "30" or "30000/1001". */
  fpsText: string;
  /** Whether the request named an fps (otherwise the root's data-fps may decide). */
  fpsGiven: boolean;
  resolution: Resolution | undefined;
  composition: string;
  /** The Worker fails a strict render on lint errors; the node fails it on a blocked network attempt. */
  strict: boolean;
  /** Values over the root's declared variable defaults, given to the page as window.__hfVariables. */
  variables: Record<string, unknown> | undefined;
  /** Fail on an undeclared or mistyped variables key (otherwise a warning finding). */
  strictVariables: boolean;
  /** The request's crf or target bitrate in place of the quality's crf (mp4, webm); a GIF's loop count. */
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
function toFraction(fps: number | string | null, format: Format): Fps {
  if (fps === null) return { num: format === "gif" ? GIF_DEFAULTS.fps : DEFAULT_FPS, den: 1 };
  const [num, den] = typeof fps === "number" ? [fps, 1] : fps.split("/").map(Number);
  const d = gcd(num ?? DEFAULT_FPS, den ?? 1) || 1;
  return { num: (num ?? DEFAULT_FPS) / d, den: (den ?? 1) / d };
}

/** "30" for whole rates, "30000/1001" otherwise: the text ffmpeg gets for -r and -framerate. */
export function formatFps(fps: Fps): string {
  return fps.den === 1 ? String(fps.num) : `${fps.num}/${fps.den}`;
}

/** Validates raw render options and fills the defaults. Throws RenderOptionError naming the option. */
export function parseRenderOptions(raw: unknown): RenderOptions {
  const input = raw === undefined || raw === null ? {} : raw;
  const defined =
    typeof input === "object" && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
      : input;
  const result = parseApiOptions(defined);
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
  options: RenderOptions,
  fpsGiven: boolean,
  declared: string | null,
): { options: RenderOptions; finding?: string } {
  if (fpsGiven || declared === null || declared.trim() === "") return { options };
  try {
    const { fps, fpsText } = parseRenderOptions({ fps: declared.trim() });
    if (options.format === "gif" && fps.num / fps.den >= GIF_DEFAULTS.fps) return { options };
    return { options: { ...options, fps, fpsText } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { options, finding: `data-fps="${declared}" on the root is not a frame rate (${reason}); rendered at ${options.fpsText} fps` };
  }
}
