// Which composition times a snapshot or a check looks at. Pure, so the rules are tested as plain numbers.

export const DEFAULT_SNAPSHOT_FRAMES = 5;
export const DEFAULT_CHECK_SAMPLES = 9;
/** Renders run at 30 fps unless told otherwise; the end frame is the last frame such a render captures. */
const FPS = 30;

export interface SnapshotTime {
  time: number;
  /** True for the extra end-of-timeline frame. */
  end: boolean;
}

/** The last frame a render at 30 fps captures: frame round(d × 30) − 1. Seeking to `duration` itself would hide
 * every clip whose window closes at the end, which no rendered frame shows. */
export function lastFrameTime(duration: number): number {
  const frames = Math.max(1, Math.round(duration * FPS - 1e-9));
  return (frames - 1) / FPS;
}

/** `at` as given, or `frames` evenly spaced from 0 (i × d / n); then the end frame unless `end` is false. */
export function snapshotTimes(duration: number, options: { at?: readonly number[] | undefined; frames?: number | undefined; end?: boolean | undefined }): SnapshotTime[] {
  const frames = options.frames ?? DEFAULT_SNAPSHOT_FRAMES;
  const chosen = options.at ? [...options.at] : Array.from({ length: frames }, (_, i) => (i * duration) / frames);
  const out: SnapshotTime[] = chosen.map((time) => ({ time: round(time), end: false }));
  if (options.end !== false) out.push({ time: round(lastFrameTime(duration)), end: true });
  return out;
}

/** `at` as given, or the midpoints of `samples` equal slices of the timeline: (i + ½) × d / n. */
export function checkTimes(duration: number, options: { at?: readonly number[] | undefined; samples?: number | undefined }): number[] {
  if (options.at) return options.at.map(round);
  const samples = options.samples ?? DEFAULT_CHECK_SAMPLES;
  return Array.from({ length: samples }, (_, i) => round(((i + 0.5) * duration) / samples));
}

/** Millisecond precision: enough for any frame rate, and file names stay short. */
function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}

/** `snapshots/frame-01-1.500s.png`; the end frame says so. */
export function snapshotFileName(index: number, t: SnapshotTime): string {
  return `snapshots/frame-${String(index + 1).padStart(2, "0")}-${t.end ? "end-" : ""}${t.time.toFixed(3)}s.png`;
}

export const CONTACT_SHEET_PATH = "snapshots/contact-sheet.png";
