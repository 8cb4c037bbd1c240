// How busy the machine's cores were between two moments, from /proc/stat (Linux). Used by the render timeline to
// show whether a stage kept the cores busy or left them waiting; null where /proc/stat is not readable.
import { readFileSync } from "node:fs";
import { logDebug } from "./debug-log.ts";

export interface CpuTimes {
  busy: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat: busy and total jiffies over all cores, or null off Linux. */
export function readCpuTimes(read: () => string = () => readFileSync("/proc/stat", "utf8")): CpuTimes | null {
  try {
    const line = read().split("\n", 1)[0] ?? "";
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== "cpu") return null;
    // user nice system idle iowait irq softirq steal (guest time is already counted in user).
    const values = fields.slice(1, 9).map(Number);
    if (values.length < 4 || values.some((v) => !Number.isFinite(v))) return null;
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    const total = values.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch (error) {
    // No /proc/stat (not Linux): how busy the cores were is unknown, and the timeline says so.
    logDebug("no /proc/stat to read the cores' time from", error);
    return null;
  }
}

/** The share of all cores' time spent busy between `from` and `to` (0 to 1), or null when unknown or too short. */
export function busyShare(from: CpuTimes | null, to: CpuTimes | null): number | null {
  if (!from || !to || to.total <= from.total) return null;
  return Math.min(1, Math.max(0, (to.busy - from.busy) / (to.total - from.total)));
}
