// CPU time of a Chromium's process tree split by process role (browser, GPU, renderer, ...) and by user and kernel
// time, from /proc (Linux). bench/capture-costs.ts prints it per frame: a frame's image costs mostly the GPU
// process's readback and the kernel's page faults on fresh buffers, which a single total hides.
import { readdirSync, readFileSync } from "node:fs";

// Linux reports utime/stime in clock ticks; USER_HZ is 100 on every Linux ABI Node runs on.
const MS_PER_TICK = 10;

export type CpuByRole = Map<string, { userMs: number; sysMs: number }>;

function readProc(pid: string): { ppid: number; user: number; sys: number; role: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const role = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"))?.[1] ?? "browser";
    return { ppid: Number(rest[1]), user: Number(rest[11]), sys: Number(rest[12]), role };
  } catch {
    return null; // gone since the listing
  }
}

/** CPU used so far by `root` and its live descendants, summed per role (the browser process is "browser"). */
export function chromiumCpuByRole(root: number): CpuByRole {
  const procs = new Map<number, NonNullable<ReturnType<typeof readProc>>>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const proc = readProc(name);
    if (proc) procs.set(Number(name), proc);
  }
  const byRole: CpuByRole = new Map();
  const queue = [root];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    const proc = procs.get(pid);
    if (!proc) continue;
    const sum = byRole.get(proc.role) ?? { userMs: 0, sysMs: 0 };
    byRole.set(proc.role, { userMs: sum.userMs + proc.user * MS_PER_TICK, sysMs: sum.sysMs + proc.sys * MS_PER_TICK });
    for (const [child, c] of procs) if (c.ppid === pid) queue.push(child);
  }
  return byRole;
}

/** `after - before` per frame, as "total" plus "role user+sys" for the roles that used at least 1 ms a frame. */
export function describeCpuPerFrame(before: CpuByRole, after: CpuByRole, frames: number): { total: number; split: string } {
  let total = 0;
  const parts: string[] = [];
  for (const [role, now] of after) {
    const was = before.get(role) ?? { userMs: 0, sysMs: 0 };
    const user = (now.userMs - was.userMs) / frames;
    const sys = (now.sysMs - was.sysMs) / frames;
    total += user + sys;
    if (user + sys >= 1) parts.push(`${role.replace("-process", "")} ${user.toFixed(0)}+${sys.toFixed(0)}`);
  }
  return { total, split: parts.join(", ") };
}
