// The node's temporary folders: all under one parent, `<tmp>/studio-node/`, inside one folder per node process
// named after its owner, `node-<pid>-<start time>`. Jobs, render work and Chromium profiles each get a folder
// in there and remove it when they end; a node that died without cleaning up (kill -9, a crash, power loss)
// leaves a folder whose owner is gone, and the next node start removes it (`clearStaleScratchDirs`).
//
// The start time (clock ticks since boot, /proc/<pid>/stat) tells a live owner from a later process that got
// the same pid: a container's node is pid 1 on every start.
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isNotFound, logDebug } from "./debug-log.ts";
import { retry } from "../../../core/retry.ts";
import type { ChildProcess } from "node:child_process";

const OWNER = /^node-(\d+)-(\d+)$/;

/** `<tmp>/studio-node`: the parent of every node's folder. */
export function scratchRoot(): string {
  return join(tmpdir(), "studio-node");
}

/** A process's start time from /proc, "0" where there is no /proc; null when the process is gone or a zombie. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state); the start time is field 22.
    return fields[0] === "Z" ? null : (fields[19] ?? null);
  } catch (error) {
    // No /proc entry: on Linux the process is gone; elsewhere there is no /proc, so signal 0 tells whether it runs.
    logDebug(`no /proc entry for process ${pid}`, error);
    if (process.platform === "linux") return null;
    try {
      process.kill(pid, 0);
      return "0";
    } catch (signalError) {
      logDebug(`process ${pid} does not answer signal 0`, signalError);
      return null;
    }
  }
}

/** The folder name of a node process: node-<pid>-<start time>. */
export function ownerFolderName(pid: number, startTime: string): string {
  return `node-${pid}-${startTime}`;
}

/** Whether the process a folder is named after still runs (the same process, not a later one with its pid). */
export function isOwnerAlive(name: string): boolean {
  const match = OWNER.exec(name);
  if (!match) return true; // not ours to judge
  const start = processStartTime(Number(match[1]));
  return start !== null && (start === match[2] || start === "0" || match[2] === "0");
}

let own: string | null = null;

/** This process's folder, created on first use. */
export async function ownScratchDir(): Promise<string> {
  if (!own) {
    const dir = join(scratchRoot(), ownerFolderName(process.pid, processStartTime(process.pid) ?? "0"));
    await mkdir(dir, { recursive: true });
    own = dir;
    // A normal exit takes the folder along; a killed process leaves it to the next node start.
    process.once("exit", removeOwnScratchDirSync);
  }
  return own;
}

/** A fresh folder for one job, render or browser: <tmp>/studio-node/node-<pid>-<start>/<kind>-XXXXXX. */
export async function makeScratchDir(kind: string): Promise<string> {
  const parent = await ownScratchDir();
  // Another process may have cleared our folder if it judged us gone (it cannot, but a manual rm can): recreate.
  await mkdir(parent, { recursive: true });
  return mkdtemp(join(parent, `${kind}-`));
}

// What a removal may be refused for a moment (a file still open, a child still writing): worth another try.
const BUSY = new Set(["EBUSY", "EMFILE", "ENFILE", "ENOTEMPTY", "EPERM"]);

/** Removes a folder made by makeScratchDir; never throws (a leftover is cleared at the next start). */
export async function removeScratchDir(dir: string): Promise<void> {
  const removed = await retry(() => rm(dir, { recursive: true, force: true }), {
    attempts: 4,
    backoff: { firstMs: 100 },
    retryable: (error) => BUSY.has(String((error as NodeJS.ErrnoException | null)?.code)),
  });
  if (!removed.ok) logDebug(`scratch folder ${dir} not removed (cleared at the next node start)`, removed.error);
}

/** Removes `dir` once `child` has exited: at once when it has (or never started), else on its exit (a node killed first leaves it to the next start). */
export async function removeWhenExited(dir: string, child: ChildProcess | null | undefined): Promise<void> {
  const running = child && child.exitCode === null && child.signalCode === null;
  const exited = running ? new Promise<void>((done) => child.once("exit", () => done())) : Promise.resolve();
  const removed = exited.then(() => removeScratchDir(dir));
  // A running child's folder goes on its exit, without holding up the caller (removeScratchDir never throws).
  if (!running) await removed;
}

/** At start: removes the folders of node processes that are gone. Returns their names. */
export async function clearStaleScratchDirs(): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(scratchRoot());
  } catch (error) {
    // No folder yet (the first node on this machine): nothing stale.
    if (!isNotFound(error)) logDebug(`${scratchRoot()} cannot be listed; stale folders stay`, error);
    return [];
  }
  const stale = names.filter((name) => OWNER.test(name) && !isOwnerAlive(name));
  await Promise.all(stale.map((name) => removeScratchDir(join(scratchRoot(), name))));
  return stale;
}

/** On exit (synchronous, so it can run in process.on("exit")): removes this process's folder. */
export function removeOwnScratchDirSync(): void {
  if (!own) return;
  try {
    rmSync(own, { recursive: true, force: true });
  } catch (error) {
    // Left to the next node start, which clears the folders of processes that are gone.
    logDebug(`scratch folder ${own} not removed at exit`, error);
  }
}
