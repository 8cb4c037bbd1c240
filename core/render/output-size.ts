// The output's pixels as the render node settles them (render-node/src/plan/settle-render.ts computeViewport), known
// before any node opens the page when the root declares its size: a preset, else the root's own size, a GIF scaled
// down to GIF_DEFAULTS.width keeping the aspect. The quote and the cost model read it. Pure.
import { GIF_DEFAULTS, RESOLUTIONS, type RenderOptions } from "./render-options.ts";

/** The output's size; null when neither a preset nor the root's declared data-width and data-height give it. */
export function outputSize(root: { width: number | null; height: number | null }, options: Pick<RenderOptions, "resolution" | "format">): { width: number; height: number } | null {
  if (options.resolution) return { ...RESOLUTIONS[options.resolution] };
  if (root.width === null || root.height === null) return null;
  if (options.format === "gif" && root.width > GIF_DEFAULTS.width) {
    return { width: GIF_DEFAULTS.width, height: Math.max(1, Math.round((root.height * GIF_DEFAULTS.width) / root.width)) };
  }
  return { width: Math.round(root.width), height: Math.round(root.height) };
}
