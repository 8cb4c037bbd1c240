// How a composition of one size is captured for an output of another. Pure.
import { GIF_DEFAULTS, RESOLUTIONS } from "../../../core/render/render-options.ts";
import type { Format, Resolution } from "../../../core/render/render-options.ts";

export interface Viewport {
  /** CSS pixels of the page: always the composition's own size, so its fixed layout holds. */
  cssWidth: number;
  cssHeight: number;
  deviceScaleFactor: number;
  /** Pixels Chromium captures: css × deviceScaleFactor, rounded. */
  captureWidth: number;
  captureHeight: number;
  /** Pixels of the output video. When they differ from the capture (another aspect ratio), ffmpeg letterboxes. */
  outputWidth: number;
  outputHeight: number;
}

/**
 * Without a preset the output is the composition's size, except a GIF wider than GIF_DEFAULTS.width: captured at
 * full size and scaled down by ffmpeg keeping its aspect (a beginFrame capture ignores a deviceScaleFactor below 1).
 * With one, the page is scaled by deviceScaleFactor (the
 * browser renders at full output resolution, text stays sharp) to fit inside the preset; an aspect ratio that
 * differs is letterboxed, centred on black.
 */
export function computeViewport(width: number, height: number, resolution: Resolution | undefined, format?: Format): Viewport {
  if (!resolution && format === "gif" && width > GIF_DEFAULTS.width) {
    const outputHeight = Math.max(1, Math.round((height * GIF_DEFAULTS.width) / width));
    return { cssWidth: width, cssHeight: height, deviceScaleFactor: 1, captureWidth: width, captureHeight: height, outputWidth: GIF_DEFAULTS.width, outputHeight };
  }
  if (!resolution) {
    return { cssWidth: width, cssHeight: height, deviceScaleFactor: 1, captureWidth: width, captureHeight: height, outputWidth: width, outputHeight: height };
  }
  const out = RESOLUTIONS[resolution];
  const scale = Math.min(out.width / width, out.height / height);
  return {
    cssWidth: width,
    cssHeight: height,
    deviceScaleFactor: scale,
    captureWidth: Math.round(width * scale),
    captureHeight: Math.round(height * scale),
    outputWidth: out.width,
    outputHeight: out.height,
  };
}
