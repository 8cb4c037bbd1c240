// Reads "frame 120/180 (67%), 14.2 fps, ETA 4 s" (the render node's progress line) into numbers, so the event
// stream can carry a progress object without a second protocol beside the log.
export interface ProgressNumbers {
  frame: number;
  total: number;
  percent: number;
  fps: number | null;
  etaSeconds: number | null;
}

const LINE = /\bframe\s+(\d+)\s*\/\s*(\d+)(?:\s*\((\d+(?:\.\d+)?)%\))?(?:,\s*(\d+(?:\.\d+)?)\s*fps)?(?:,\s*ETA\s+(\d+(?:\.\d+)?)\s*s)?/i;

export function parseProgressLine(line: string): ProgressNumbers | null {
  const m = LINE.exec(line);
  if (!m) return null;
  const frame = Number(m[1]);
  const total = Number(m[2]);
  if (total <= 0 || frame > total) return null;
  return {
    frame,
    total,
    percent: m[3] !== undefined ? Number(m[3]) : Math.round((frame / total) * 100),
    fps: m[4] !== undefined ? Number(m[4]) : null,
    etaSeconds: m[5] !== undefined ? Number(m[5]) : null,
  };
}
