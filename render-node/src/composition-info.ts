// What the page runtime reports about a loaded composition (window.__studio.info()).

export interface MediaClip {
  kind: "audio" | "video";
  /** Absolute URL as the page resolved it. */
  src: string;
  /** Start on the root timeline, seconds. */
  start: number;
  /** Seconds on screen / audible, or null for "until the end". */
  duration: number | null;
  mediaStart: number;
  volume: number;
}

export interface VideoClip {
  index: number;
  src: string | null;
  start: number;
  duration: number | null;
  mediaStart: number;
}

export interface CompositionInfo {
  compositionId: string;
  width: number;
  height: number;
  duration: number;
  /** The root's data-fps as written ("24", "30000/1001"), or null. */
  fps: string | null;
  timelines: string[];
  /** What went wrong while mounting: script errors and sub-compositions that did not mount, each naming its file. */
  problems: string[];
  audio: MediaClip[];
  videos: VideoClip[];
}

/** The runtime's global, as page.evaluate callbacks see it. */
export interface StudioWindow {
  __studio: {
    ready(): Promise<void>;
    info(): CompositionInfo;
    seek(t: number): Promise<void>;
    /** Problems so far, including those raised after loading (timers, timeline callbacks during seeks). */
    problems(): string[];
    configure(options: Record<string, unknown>): void;
  };
}
