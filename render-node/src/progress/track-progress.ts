// Turns "one more frame done" into progress events and log lines (at most two lines a second).

export interface Progress {
  frame: number;
  total: number;
  fps: number;
  etaSeconds: number;
  /** Frames so far that were the previous frame's bytes again (frame reuse), not captured. */
  reused: number;
}

/** "frame 120/180 (67%), 14.2 fps, ETA 4 s". Pure. */
export function formatProgressLine(progress: Progress): string {
  const percent = Math.round((progress.frame / Math.max(1, progress.total)) * 100);
  return `frame ${progress.frame}/${progress.total} (${percent}%), ${progress.fps.toFixed(1)} fps, ETA ${Math.ceil(progress.etaSeconds)} s`;
}

const LINE_INTERVAL_MS = 500;

/** Returns the per-frame callback; fps is measured since the first captured frame. */
export function trackProgress(
  total: number,
  onProgress: (progress: Progress) => void,
  onLine: (line: string) => void,
  now: () => number = () => performance.now(),
): (frame?: { reused: boolean }) => void {
  let done = 0;
  let reused = 0;
  const started = now();
  let lastLine = -Infinity;
  return function frameDone(frame) {
    done++;
    if (frame?.reused) reused++;
    const elapsed = (now() - started) / 1000;
    const fps = elapsed > 0 ? done / elapsed : 0;
    const progress: Progress = { frame: done, total, fps, etaSeconds: fps > 0 ? (total - done) / fps : 0, reused };
    const t = now();
    if (t - lastLine >= LINE_INTERVAL_MS || done === total) {
      lastLine = t;
      onProgress(progress);
      onLine(formatProgressLine(progress));
    }
  };
}
