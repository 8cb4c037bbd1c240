// The key a render's frames are carried under (incremental re-render): everything that is the same for every frame
// and that a frame's fingerprint does not show. Any difference and nothing is carried. Pure.
import { createHash } from "node:crypto";
import type { ResolvedRender } from "../plan/resolve-render.ts";
import type { Viewport } from "../plan/settle-render.ts";

/**
 * Bumped with any change to how the node draws or encodes a frame (capture, colour conversion, encoder arguments,
 * the bundled fonts) that the options do not show.
 */
export const RENDERER_VERSION = "studio-renderer-1";

export interface CarryKeyInput {
  /** Chromium's version string (browser.version()): another Chromium may draw the same DOM otherwise. */
  browserVersion: string;
  options: ResolvedRender;
  viewport: Viewport;
  alpha: boolean;
  /** Path → content hash of every project file but the compositions' HTML (project-file-hashes.ts). */
  files: Record<string, string>;
  /** The page's loadKey(): its scripts' text and sources, GSAP's version, its font faces. */
  pageKey: string;
}

/** Hex SHA-256 of the inputs in a fixed order (object keys sorted at every level). */
export function carryKey(input: CarryKeyInput): string {
  const { options } = input;
  // Every option that reaches a pixel or the encoder; from/to are not here: each segment's own frames are compared.
  const settings = {
    renderer: RENDERER_VERSION, browser: input.browserVersion, format: options.format, quality: options.quality,
    fps: options.fpsText, resolution: options.resolution ?? null, composition: options.composition, variables: options.variables ?? null,
    crf: options.crf ?? null, videoBitrate: options.videoBitrate ?? null, gifLoop: options.gifLoop ?? null,
    viewport: input.viewport, alpha: input.alpha, files: input.files, page: input.pageKey,
  };
  return createHash("sha256").update(stableJson(settings)).digest("hex");
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
}
