// Runs a command and prints its wall time and the CPU seconds of its whole process tree, Chromium's detached
// process group included (/usr/bin/time misses the processes Chromium's zygote reaps). Polls /proc every 40 ms and
// keeps each process's last reading, so another job on the machine does not count, as it does in /proc/stat.
//
//   node bench/tree-cpu.ts node bench/some-render.ts reference /tmp/out.mp4
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { parseProcStat } from "../render-node/src/bounds/process-tree-cpu.ts";

const TICKS_PER_SECOND = 100;
const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error("usage: node bench/tree-cpu.ts <command> [args...]");

const started = performance.now();
const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
const tree = new Set<number>([child.pid!]);
// Keyed by pid and start time: a pid reused after its process ended is another process.
const ticks = new Map<string, number>();

function startTime(pid: number): string | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/stat`, "utf8");
    return line.slice(line.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function poll(): void {
  const stats = readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const stat = parseProcStat(readFileSync(`/proc/${name}/stat`, "utf8"));
      return stat ? [stat] : [];
    } catch {
      return [];
    }
  });
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats) if (!tree.has(s.pid) && tree.has(s.ppid)) (tree.add(s.pid), (grew = true));
  }
  for (const s of stats) {
    if (!tree.has(s.pid)) continue;
    const key = `${s.pid}:${startTime(s.pid)}`;
    ticks.set(key, Math.max(ticks.get(key) ?? 0, s.ticks));
  }
}

const timer = setInterval(poll, 40);
child.on("exit", (code) => {
  clearInterval(timer);
  const cpu = [...ticks.values()].reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
  console.log(`wall ${((performance.now() - started) / 1000).toFixed(2)} s, tree cpu ${cpu.toFixed(2)} s, exit ${code}`);
  process.exitCode = code ?? 1;
});
