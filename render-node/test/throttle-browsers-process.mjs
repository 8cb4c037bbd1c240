// The throttling loop of throttle-browsers.ts, in a process of its own so that its timers keep time while the test's
// own process is busy with the render (screenshots arrive, frames go to ffmpeg). Usage: node this.mjs ROOT_PID SHARE
// RUN_MS. Stops every Chromium process below ROOT_PID most of the time and lets them run in RUN_MS slices, so they get
// SHARE of the clock; no stop lasts longer than MAX_STOP_MS, so a probe window never sees a browser stopped throughout.
// On SIGTERM, or once ROOT_PID is gone, it lets them all run and exits.
import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";

const [rootPid, share, runMs] = process.argv.slice(2).map(Number);
const MAX_STOP_MS = 150;

try {
  setPriority(-10); // keep time on a loaded machine (root only; elsewhere the loop runs at normal priority)
} catch {}

function browserPids() {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      const proc = { pid: Number(entry), name: stat.slice(stat.indexOf("(") + 1, close) };
      children.set(ppid, [...(children.get(ppid) ?? []), proc]);
    } catch {
      // gone since the listing
    }
  }
  const pids = [];
  const queue = [...(children.get(rootPid) ?? [])];
  for (let proc = queue.pop(); proc; proc = queue.pop()) {
    if (/chrom|headless/i.test(proc.name)) pids.push(proc.pid);
    queue.push(...(children.get(proc.pid) ?? []));
  }
  return pids;
}

function signal(pids, name) {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // exited meanwhile
    }
  }
}

let stopped = [];
let timer;
let ranFrom = performance.now();
function finish() {
  clearTimeout(timer);
  signal(stopped, "SIGCONT");
  process.exit(0);
}
function stop() {
  try {
    process.kill(rootPid, 0);
  } catch {
    return finish();
  }
  stopped = browserPids();
  signal(stopped, "SIGSTOP");
  const ran = performance.now() - ranFrom;
  timer = setTimeout(resume, Math.min(MAX_STOP_MS, (ran * (1 - share)) / share));
}
function resume() {
  signal(stopped, "SIGCONT");
  stopped = [];
  ranFrom = performance.now();
  timer = setTimeout(stop, runMs);
}
process.on("SIGTERM", finish);
timer = setTimeout(stop, runMs);
