// What the page runtime exposes, typed once: the node (render-node/src) and the player read these types, nothing
// restates them. The globals are the ones the untyped runtime had: window.__studio (the node's and the player's
// handle), window.__studioPlayer, window.__studioRunScoped (called by wrapped sub-composition scripts), and the
// compositions' own window.__timelines and window.__hyperframes.
import type { Finding } from "../core/protocol/finding.ts";
import type { CompositionInfo } from "../core/protocol/page-report.ts";

export type { Finding };

// The composition's info, its sounds and videos: declared once, as the zod schemas the render node parses them
// with (core/protocol/page-report.ts: a composition's scripts can change what the runtime answers, so the node
// checks every field), and typed here from them.
export type { CompositionInfo, MediaClip, VideoClip } from "../core/protocol/page-report.ts";

/**
 * Render mode: where a <video>'s extracted frames are (render-node/src/media/extract-video-frames.ts). Videos that show
 * the same file at the same rate from the same in-point share one folder of frames.
 */
export interface VideoFrameSource {
  /** The node's folder of frames this video shows: "{folder}" in videoFrameUrl. */
  folder: number;
  /** The last frame this video shows: the page holds it past its end (frames are numbered from 1 at its start). */
  count: number;
  /** A looping video's cycle (seconds of its file from the in-point, the frames' clock), else null. */
  loopSeconds: number | null;
}

/** Render mode: how seeking shows the frames ffmpeg extracted from each <video>. */
export interface RuntimeConfig {
  fps: [number, number];
  /** "/__studio/video/{folder}/{frame}.jpg" */
  videoFrameUrl: string | null;
  /** By the video's place in info().videos: its frames, or null where none were extracted (it stays blank). */
  videoFrames: (VideoFrameSource | null)[];
}

export interface StudioApi {
  ready(): Promise<void>;
  info(): CompositionInfo;
  /** Shows the composition at time t (seconds): every timeline, every clip window, every video frame. */
  seek(t: number): Promise<void>;
  /**
   * Seeks like seek(t), then answers why the picture at t may differ from the one at `from` (the frame before,
   * already shown), or null when it provably cannot and the node may reuse that frame's bytes (frame reuse).
   */
  seekFrame(t: number, from: number | null): Promise<string | null>;
  /**
   * Incremental re-render (src/runtime/frame-fingerprint.ts): 16 hex digits naming everything that paints at the
   * time last sought, or "!" and why it cannot be told (never equal to another frame's). Render mode only.
   */
  frameFingerprint(): string;
  /** A hash of the scripts the page loaded and GSAP's version: what a frame's fingerprint does not show. */
  loadKey(): string;
  /**
   * The gain of each sound info() lists, sampled every `step` seconds of composition time inside its window by
   * seeking the timelines (a GSAP tween or script changing its volume): one list per sound, empty when its gain stays
   * at its data-volume. Leaves the timelines at 0.
   */
  volumeAutomation(step: number): { time: number; volume: number }[][];
  /** Findings so far, including those raised after loading (timers, timeline callbacks during seeks). */
  findings(): Finding[];
  configure(options: Partial<RuntimeConfig>): void;
  /** Play mode: whether the clock runs, so media plays instead of resting on a frame. */
  setPlaying(value: boolean): void;
  renderMode: boolean;
}

export interface PlayerState {
  time: number;
  duration: number;
  playing: boolean;
  loop: boolean;
  ready: boolean;
}

export interface PlayerApi {
  play(): void;
  pause(): void;
  seek(t: number): void;
  setLoop(value: boolean): void;
  state(): PlayerState;
}

/** The runtime's global, as page.evaluate callbacks in the node see it. */
export interface StudioWindow {
  __studio: StudioApi;
}
