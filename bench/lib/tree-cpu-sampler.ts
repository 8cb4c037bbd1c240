// CPU seconds a set of process trees uses over a stretch of time, Chromium's detached process groups included
// (/usr/bin/time misses the processes Chromium's zygote reaps): /proc is read every 40 ms and each process's last
// reading kept, so a process that ends between two looks loses at most that much. Only the trees' processes count,
// not another job on the machine (as /proc/stat would). A process alive when sampling starts (a render node waiting
// for work) counts only what it uses from then on. bench/tree-cpu.ts (one command) and bench/render-speed-api.ts
// (a studio's processes against HyperFrames' CLI) use it.
import { readdirSync, readFileSync } from "node:fs";
import { parseProcStat } from "../../render-node/src/bounds/process-tree-cpu.ts";
import { logDebug } from "../../render-node/src/system/debug-log.ts";

const TICKS_PER_SECOND = 100;

interface Reading {
  pid: number;
  ppid: number;
  ticks: number;
  /** Start time (jiffies since boot): a pid reused after its process ended is another process. */
  key: string;
}

function readAll(): Reading[] {
  return readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const line = readFileSync(`/proc/${name}/stat`, "utf8");
      const stat = parseProcStat(line);
      const started = line.slice(line.lastIndexOf(")") + 2).split(" ")[19];
      return stat ? [{ ...stat, key: `${stat.pid}:${started}` }] : [];
    } catch (error) {
      logDebug(`process ${name} gone before its stat was read: it uses no more CPU`, error);
      return [];
    }
  });
}

export interface TreeCpu {
  /** Stops sampling; the CPU seconds the trees used since the start. */
  stop(): number;
  /** After stop: those seconds by kind of process (processKind), largest first. */
  byKind(): [kind: string, seconds: number][];
}

/**
 * What a process is, from its command line (NUL-separated, or one string where Chromium rewrote its title): Chromium's
 * process type ("chromium gpu-process", "chromium renderer", "chromium browser" for the main one), else the
 * program's name ("ffmpeg", "node"). Pure.
 */
export function processKind(cmdline: string): string {
  const args = cmdline.split(/[\0 ]/).filter(Boolean);
  const program = (args[0] ?? "?").split("/").pop()!;
  if (!program.startsWith("chrom")) return program;
  const type = /--type=([a-z-]+)/.exec(cmdline)?.[1];
  return `chromium ${type ?? "browser"}`;
}

function kindOf(pid: number): string {
  try {
    return processKind(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  } catch (error) {
    logDebug(`process ${pid} gone before its command line was read`, error);
    return "?";
  }
}

/**
 * Samples the trees under `roots` (the roots included) until stopped, leaving out the trees under `exclude` (e.g. a
 * studio's processes, children of the bench too, while HyperFrames' CLI renders).
 */
export function sampleTreeCpu(roots: readonly number[], exclude: readonly number[] = []): TreeCpu {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const kinds = new Map<string, string>();
  const look = (starting: boolean) => {
    const all = readAll();
    const inTree = new Set(roots);
    const outside = new Set(exclude);
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of all) {
        if (inTree.has(r.pid) || outside.has(r.pid)) continue;
        if (outside.has(r.ppid)) (outside.add(r.pid), (grew = true));
        else if (inTree.has(r.ppid)) (inTree.add(r.pid), (grew = true));
      }
    }
    for (const r of all) {
      if (!inTree.has(r.pid)) continue;
      if (starting) first.set(r.key, r.ticks);
      last.set(r.key, Math.max(last.get(r.key) ?? 0, r.ticks));
      if (!kinds.has(r.key)) kinds.set(r.key, kindOf(r.pid));
    }
  };
  look(true);
  const timer = setInterval(() => look(false), 40);
  return {
    stop() {
      clearInterval(timer);
      look(false);
      let ticks = 0;
      for (const [key, value] of last) ticks += value - (first.get(key) ?? 0);
      return ticks / TICKS_PER_SECOND;
    },
    byKind() {
      const seconds = new Map<string, number>();
      for (const [key, value] of last) {
        const kind = kinds.get(key) ?? "?";
        seconds.set(kind, (seconds.get(kind) ?? 0) + (value - (first.get(key) ?? 0)) / TICKS_PER_SECOND);
      }
      return [...seconds].sort((a, b) => b[1] - a[1]);
    },
  };
}
