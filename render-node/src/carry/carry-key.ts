// The key a render's frames are carried under (incremental re-render): everything that is the same for every frame
// and that a frame's fingerprint does not show. Any difference and nothing is carried. Pure.
import { createHash } from "node:crypto";
import type { ResolvedRender } from "../plan/resolve-render.ts";
import type { Viewport } from "../plan/settle-render.ts";
import { canonicalJson } from "../../../core/canonical-json.ts";
// Bumped with any change to how the node draws or encodes a frame that the options do not show; the render cache's
// key reads the same version.
import { RENDER_ENGINE_VERSION } from "../../../core/render/render-engine.ts";

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
    renderer: RENDER_ENGINE_VERSION, browser: input.browserVersion, format: options.format, quality: options.quality,
    fps: options.fpsText, resolution: options.resolution ?? null, composition: options.composition, variables: options.variables ?? null,
    crf: options.crf ?? null, videoBitrate: options.videoBitrate ?? null, gifLoop: options.gifLoop ?? null,
    viewport: input.viewport, alpha: input.alpha, files: input.files, page: input.pageKey,
  };
  return createHash("sha256").update(canonicalJson(settings)).digest("hex");
}
