// A render's options as the node renders them: the API's RenderOptions (core/render/render-options.ts, the schema
// the Worker validated the request with, parsed again here from the job) with what the pipeline derives from them:
// the frame rate as an exact fraction and the text ffmpeg gets for it. One type of options in the whole studio;
// ResolvedRender only adds the derived fields. What the loaded page settles (its data-fps, the frame count, the
// viewport) is settle-render.ts.
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
  /** Only frames [from, to) (core/render/render-range.ts), settled against the page in settle-render.ts. */
  from?: RenderOptions["from"] | undefined;
  to?: RenderOptions["to"] | undefined;
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
  const { quality, format, fps, resolution, composition, strict, variables, strictVariables, crf, videoBitrate, gifLoop, from, to } = result.options;
  const fraction = toFraction(fps, format);
  return {
    quality, format, fps: fraction, fpsText: formatFps(fraction), fpsGiven: fps !== null, resolution: resolution ?? undefined, composition, strict,
    variables, strictVariables, crf, videoBitrate, gifLoop, from, to,
  };
}

/** The composition time of frame `index`, in seconds. */
export function frameTime(index: number, fps: Fps): number {
  return (index * fps.den) / fps.num;
}
