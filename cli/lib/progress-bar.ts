// The render progress line. On a terminal one line redrawn in place; elsewhere (logs, CI) a line per 10 %.
export interface ProgressInfo {
  percent: number;
  frame?: number;
  total?: number;
  etaSeconds?: number | null;
}

export function progressLine(info: ProgressInfo, width = 30): string {
  const percent = Math.max(0, Math.min(100, Math.floor(info.percent)));
  const filled = Math.round((percent / 100) * width);
  const frames = info.total ? ` frame ${info.frame ?? 0}/${info.total}` : "";
  const eta = info.etaSeconds != null && percent < 100 ? ` eta ${Math.ceil(info.etaSeconds)}s` : "";
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(percent).padStart(3)}%${frames}${eta}`;
}

export function createProgressBar(out: NodeJS.WriteStream) {
  let lastStep = -1;
  let drawn = false;
  return {
    update(info: ProgressInfo) {
      if (out.isTTY) {
        out.write(`\r${progressLine(info)}`);
        drawn = true;
        return;
      }
      const step = Math.floor(info.percent / 10);
      if (step > lastStep) {
        lastStep = step;
        out.write(`${progressLine(info)}\n`);
      }
    },
    done() {
      if (drawn) out.write("\n");
      drawn = false;
    },
  };
}
