// The render progress line. On a terminal one line redrawn in place; elsewhere (logs, CI) a line per 10 %. The
// numbers come from the studio's event stream unchecked, so the line goes out through a Printer (terminal-safe).
import type { RenderProgress } from "../../core/protocol/progress.ts";
import type { Printer } from "./print.ts";

/** The render's progress as its events carry it (the contract's fields); the final 100 % may know only the total. */
export type ProgressInfo = Pick<RenderProgress, "percent"> & Partial<Pick<RenderProgress, "frame" | "total" | "etaSeconds">>;

export function progressLine(info: ProgressInfo, width = 30): string {
  const percent = Math.max(0, Math.min(100, Math.floor(info.percent)));
  const filled = Math.round((percent / 100) * width);
  const frames = info.total ? ` frame ${info.frame ?? 0}/${info.total}` : "";
  const eta = info.etaSeconds != null && percent < 100 ? ` eta ${Math.ceil(info.etaSeconds)}s` : "";
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)}%${frames}${eta}`;
}

export function createProgressBar(out: Printer) {
  let lastStep = -1;
  let drawn = false;
  return {
    update(info: ProgressInfo) {
      if (out.isTTY) {
        out.redraw(progressLine(info));
        drawn = true;
        return;
      }
      const step = Math.floor(info.percent / 10);
      if (step > lastStep) {
        lastStep = step;
        out.line(progressLine(info));
      }
    },
    done() {
      if (drawn) out.endLine();
      drawn = false;
    },
  };
}
