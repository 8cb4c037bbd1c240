// How long each stage of opening and rendering a composition may take before it fails, naming the stage (and the
// frame). A composition that hangs (`while(true){}`, a seek that never returns, a timeline never registered)
// fails once within these bounds, and its browsers and ffmpegs are killed. The node sets them from its configuration
// (config/node-config.ts: PAGE_LOAD_TIMEOUT_MS, TIMELINE_TIMEOUT_MS, FRAME_TIMEOUT_MS, ENCODE_TIMEOUT_MS).

export interface StageBounds {
  /** Navigation until `load`, fonts ready and images decoded. */
  pageLoadMs: number;
  /** The root composition's timeline appearing on window.__timelines, and reading the composition's info. */
  timelineMs: number;
  /** Each of: seeking one frame, capturing it, handing it to the encoder (and preparing a page for capture). */
  frameMs: number;
  /** Each ffmpeg step that is not fed frame by frame, plus 2 s per second of media it handles (see encodeBound). */
  encodeMs: number;
}

export const DEFAULT_STAGE_BOUNDS: StageBounds = {
  pageLoadMs: 30_000,
  timelineMs: 10_000,
  frameMs: 10_000,
  encodeMs: 120_000,
};

/** The bound of an ffmpeg step over `mediaSeconds` of audio or video: encodeMs plus 2 s per second of media. */
export function encodeBound(bounds: StageBounds, mediaSeconds: number): number {
  return bounds.encodeMs + Math.ceil(Math.max(0, mediaSeconds) * 2000);
}
