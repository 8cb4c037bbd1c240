// Render options of POST /api/projects/:slug/render, validated up front with messages that name the option and
// the allowed values. Pure: the Worker validates with it, the render node trusts what it produced.
import { checkProjectPath } from "../paths/project-path.ts";

export const QUALITIES = ["draft", "standard", "high"] as const;
export const FORMATS = ["mp4", "webm", "mov", "gif"] as const;
export const RESOLUTIONS = {
  landscape: { width: 1920, height: 1080 },
  portrait: { width: 1080, height: 1920 },
  square: { width: 1080, height: 1080 },
  "landscape-4k": { width: 3840, height: 2160 },
  "portrait-4k": { width: 2160, height: 3840 },
} as const;
export const MAX_FPS = 120;

export type Quality = (typeof QUALITIES)[number];
export type Format = (typeof FORMATS)[number];
export type Resolution = keyof typeof RESOLUTIONS;

export interface RenderOptions {
  quality: Quality;
  /** As given: an integer, or "num/den" passed to ffmpeg exactly. Null means the default (30). */
  fps: number | string | null;
  format: Format;
  composition: string;
  resolution: Resolution | null;
  strict: boolean;
  wait: boolean;
}

export const FORMAT_CONTENT_TYPES: Record<Format, string> = {
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  gif: "image/gif",
};

const KNOWN = ["quality", "fps", "format", "composition", "resolution", "strict", "wait"];
const list = (values: readonly string[]) => values.join(", ");

export type OptionsResult = { ok: true; options: RenderOptions } | { ok: false; error: string };

function parseFps(value: unknown): number | string | null | { error: string } {
  const bad = { error: `invalid fps: ${JSON.stringify(value)}; give an integer from 1 to ${MAX_FPS} or a rational "num/den" such as "30000/1001"` };
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= MAX_FPS ? value : bad;
  if (typeof value !== "string") return bad;
  const text = value.trim();
  if (/^\d+$/.test(text)) return parseFps(Number(text));
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) return bad;
  const num = Number(match[1]);
  const den = Number(match[2]);
  if (num < 1 || den < 1 || num / den > MAX_FPS || num / den < 1) return bad;
  return `${num}/${den}`;
}

function pick<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T | null): T | null | { error: string } {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  return { error: `invalid ${name}: ${JSON.stringify(value)}; allowed values: ${list(allowed)}` };
}

function isError(value: unknown): value is { error: string } {
  return typeof value === "object" && value !== null && "error" in value;
}

export function parseRenderOptions(input: unknown): OptionsResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, error: "render options must be a JSON object" };
  }
  const body = input as Record<string, unknown>;
  const unknown = Object.keys(body).filter((k) => !KNOWN.includes(k));
  if (unknown.length) return { ok: false, error: `unknown render option ${unknown[0]}; allowed options: ${list(KNOWN)}` };
  const quality = pick("quality", body.quality, QUALITIES, "standard");
  if (isError(quality)) return { ok: false, error: quality.error };
  const format = pick("format", body.format, FORMATS, "mp4");
  if (isError(format)) return { ok: false, error: format.error };
  const resolution = pick("resolution", body.resolution, Object.keys(RESOLUTIONS) as Resolution[], null);
  if (isError(resolution)) return { ok: false, error: resolution.error };
  const fps = parseFps(body.fps);
  if (isError(fps)) return { ok: false, error: fps.error };
  for (const flag of ["strict", "wait"] as const) {
    if (body[flag] !== undefined && typeof body[flag] !== "boolean") {
      return { ok: false, error: `invalid ${flag}: ${JSON.stringify(body[flag])}; allowed values: true, false` };
    }
  }
  let composition = "index.html";
  if (body.composition !== undefined) {
    const check = typeof body.composition === "string" ? checkProjectPath(body.composition) : null;
    if (!check || !check.ok || check.isDirectory || !check.path.endsWith(".html")) {
      return {
        ok: false,
        error: `invalid composition: ${JSON.stringify(body.composition)}; give a project-relative .html file such as "compositions/intro.html"`,
      };
    }
    composition = check.path;
  }
  return {
    ok: true,
    options: {
      quality: quality ?? "standard",
      fps,
      format: format ?? "mp4",
      composition,
      resolution,
      strict: body.strict === true,
      wait: body.wait === true,
    },
  };
}

/** `<slug>_<YYYY-MM-DD>_<HH-MM-SS>.<ext>` in UTC. */
export function renderFilename(slug: string, format: Format, at: Date): string {
  const iso = at.toISOString();
  return `${slug}_${iso.slice(0, 10)}_${iso.slice(11, 19).replace(/:/g, "-")}.${format}`;
}

const FILENAME = /^([a-z0-9][a-z0-9-]*)_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.(mp4|webm|mov|gif)$/;
export function isRenderFilename(name: string): boolean {
  return FILENAME.test(name);
}
