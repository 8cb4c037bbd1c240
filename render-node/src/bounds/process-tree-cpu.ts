// CPU time used so far by a process and all its descendants, from /proc (Linux): Chromium's browser, zygotes,
// renderers and GPU process, or one ffmpeg. Stage bounds read it to tell a stage that is slow because the machine is
// loaded (little CPU time per wall second) from one that spins or waits on nothing. Read only when a bound's timer
// fires, never per frame; null where /proc is not readable.
import { readdirSync, readFileSync } from "node:fs";
import { logDebug } from "../system/debug-log.ts";

// Linux reports utime/stime in clock ticks; USER_HZ is 100 on every Linux ABI Node runs on.
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  ticks: number;
}

/** Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses, so fields count from its end. */
export function parseProcStat(line: string): ProcStat | null {
  const close = line.lastIndexOf(")");
  if (close < 0) return null;
  const pid = Number.parseInt(line, 10);
  // After ")": state(3) ppid(4) ... utime(14) stime(15); rest[0] is field 3.
  const rest = line.slice(close + 2).split(" ");
  const ppid = Number(rest[1]);
  const ticks = Number(rest[11]) + Number(rest[12]);
  return Number.isFinite(pid) && Number.isFinite(ppid) && Number.isFinite(ticks) ? { pid, ppid, ticks } : null;
}

function readStats(): ProcStat[] | null {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch (error) {
    // No /proc (not Linux): CPU use is unknown, and a paced bound falls back to its plain time.
    logDebug("no /proc to read CPU use from", error);
    return null;
  }
  const stats: ProcStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = parseProcStat(readFileSync(`/proc/${name}/stat`, "utf8"));
      if (stat) stats.push(stat);
    } catch (error) {
      // Gone since the listing: it uses no more CPU.
      logDebug(`process ${name} gone before its stat was read`, error);
    }
  }
  return stats;
}

/** Milliseconds of CPU used by `pid` and its descendants (those alive now), or null when unknown. */
export function processTreeCpuMs(pid: number | undefined, stats: ProcStat[] | null = readStats()): number | null {
  if (pid === undefined || !stats) return null;
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const root = stats.find((s) => s.pid === pid);
  if (!root) return null;
  let ticks = 0;
  const queue = [root];
  for (let stat = queue.pop(); stat; stat = queue.pop()) {
    ticks += stat.ticks;
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
