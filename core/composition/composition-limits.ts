// The largest composition the studio renders: canvas, frame rate, length and frame count of a composition's root.
// Render nodes are shared, and a page's size is its author's to choose: without these a data-width="100000"
// data-height="100000" would make every browser on a node allocate gigabytes per frame. The numbers alone, apart
// from the HTML reading in size-limits.ts, so that the Worker's settings, render options and docs can name them
// without loading an HTML parser when the Worker starts. Pure.

/**
 * Each side at most 4096 px (DCI 4K's width, so 4K UHD 3840x2160 and portrait 2160x3840 fit either way round), and
 * the canvas at most 4096x2160 = 8,847,360 px, DCI 4K's area: a frame is then at most about 35 MB of RGBA in each
 * browser, whatever the shape (a square canvas up to 2974x2974), where 4096x4096 would be twice that.
 * 120 fps is what the render options already allowed. An hour is MAX_VIDEO_SECONDS' default. Frames bound the work
 * of one render: an hour at 60 fps (216,000); 120 fps is for clips up to half an hour.
 */
export const COMPOSITION_LIMITS = {
  maxSide: 4096,
  maxPixels: 4096 * 2160,
  maxFps: 120,
  maxDurationSeconds: 3600,
  maxFrames: 3600 * 60,
} as const;

/** The frame rate a composition is counted at when neither its root nor the request names one. */
export const DEFAULT_COUNTING_FPS = 30;

/** Frames of `duration` seconds at `fps`, counted as the render node counts them (round, at least 1). */
export function countLimitFrames(duration: number, fps: number): number {
  return Math.max(1, Math.round(duration * fps - 1e-9));
}
