// Render options as the API takes them, checked up front. Pure: no Node built-ins, so the Worker can reuse it.

export const QUALITIES = ["draft", "standard", "high"] as const;
export const FORMATS = ["mp4", "webm", "mov", "gif"] as const;
export const RESOLUTIONS = ["landscape", "portrait", "square", "landscape-4k", "portrait-4k"] as const;

export type Quality = (typeof QUALITIES)[number];
export type Format = (typeof FORMATS)[number];
export type Resolution = (typeof RESOLUTIONS)[number];

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
  resolution: Resolution | undefined;
  composition: string;
}

export const DEFAULT_FPS = 30;

/** Output size of each resolution preset, in pixels. */
export const RESOLUTION_SIZES: Record<Resolution, { width: number; height: number }> = {
  landscape: { width: 1920, height: 1080 },
  portrait: { width: 1080, height: 1920 },
  square: { width: 1080, height: 1080 },
  "landscape-4k": { width: 3840, height: 2160 },
  "portrait-4k": { width: 2160, height: 3840 },
};

/** MIME type of each output format, for uploads and downloads. */
export const FORMAT_CONTENT_TYPES: Record<Format, string> = {
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  gif: "image/gif",
};

export class RenderOptionError extends Error {
  readonly option: string;
  constructor(option: string, message: string) {
    super(message);
    this.name = "RenderOptionError";
    this.option = option;
  }
}

// Checks one enumerated option and names the allowed values when it is wrong.
function pickOne<T extends string>(option: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new RenderOptionError(
    option,
    `invalid option "${option}": expected one of ${allowed.join(", ")}; received ${JSON.stringify(value)}`,
  );
}

// Reads an integer, a decimal or "num/den" into an exact fraction between 1 and 240 frames per second.
export function parseFps(value: unknown): Fps {
  const fail = (): never => {
    throw new RenderOptionError(
      "fps",
      `invalid option "fps": expected a number of frames per second between 1 and 240 or a rational string "<num>/<den>" such as "30000/1001"; received ${JSON.stringify(value)}`,
    );
  };
  let fps: Fps | undefined;
  if (typeof value === "number" && Number.isFinite(value)) {
    if (Number.isInteger(value)) fps = { num: value, den: 1 };
    else {
      // A decimal like 29.97 becomes 2997/100; three decimals are plenty for a frame rate.
      const den = 1000;
      fps = reduce({ num: Math.round(value * den), den });
    }
  } else if (typeof value === "string") {
    const match = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(value);
    if (match) fps = reduce({ num: Number(match[1]), den: match[2] === undefined ? 1 : Number(match[2]) });
    else if (/^\s*\d+\.\d+\s*$/.test(value)) return parseFps(Number(value));
  }
  if (!fps || fps.den === 0 || fps.num === 0) return fail();
  const rate = fps.num / fps.den;
  if (rate < 1 || rate > 240) return fail();
  return fps;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function reduce(fps: Fps): Fps {
  if (fps.den === 0) return fps;
  const d = gcd(fps.num, fps.den) || 1;
  return { num: fps.num / d, den: fps.den / d };
}

/** "30" for whole rates, "30000/1001" otherwise: the text ffmpeg gets for -r and -framerate. */
export function formatFps(fps: Fps): string {
  return fps.den === 1 ? String(fps.num) : `${fps.num}/${fps.den}`;
}

// A project-relative HTML file, never escaping the project.
function parseComposition(value: unknown): string {
  if (value === undefined || value === null || value === "") return "index.html";
  if (
    typeof value !== "string" ||
    !value.endsWith(".html") ||
    value.startsWith("/") ||
    value.includes("\\") ||
    value.split("/").some((part) => part === ".." || part === "" || part === ".")
  ) {
    throw new RenderOptionError(
      "composition",
      `invalid option "composition": expected a project-relative .html file such as "index.html" or "compositions/intro.html"; received ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Validates raw render options (from JSON) and fills the defaults. Throws RenderOptionError naming the option. */
export function parseRenderOptions(raw: unknown): RenderOptions {
  if (raw !== undefined && raw !== null && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new RenderOptionError("options", `invalid render options: expected an object; received ${JSON.stringify(raw)}`);
  }
  const input = (raw ?? {}) as Record<string, unknown>;
  const quality = pickOne("quality", input.quality, QUALITIES, "standard");
  const format = pickOne("format", input.format, FORMATS, "mp4");
  const resolution =
    input.resolution === undefined || input.resolution === null
      ? undefined
      : pickOne("resolution", input.resolution, RESOLUTIONS, "landscape");
  const fps = input.fps === undefined || input.fps === null ? { num: DEFAULT_FPS, den: 1 } : parseFps(input.fps);
  const composition = parseComposition(input.composition);
  return { quality, format, fps, fpsText: formatFps(fps), resolution, composition };
}
