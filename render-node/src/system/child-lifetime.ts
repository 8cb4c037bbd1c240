// Chromium and ffmpeg die with the render node, however it dies (kill -9 included). Every binary the node starts
// goes through `setpriv --pdeathsig KILL` (util-linux): the kernel sends the child SIGKILL the moment its parent
// exits, a promise no cleanup handler in the node can make once the node itself is SIGKILLed.
//
// The death signal reaches the direct child only. For Chromium that is the browser process; its zygotes,
// renderers (even one stuck in `while(true){}`), GPU and network processes exit within a second of it, because
// their IPC channel to the browser closes (render-node/test/child-lifetime.test.ts shows it, and that without
// the wrapper the whole tree survives).
//
// Without setpriv (macOS, a stripped image) binaries start directly and this says so once: normal stops and
// cancels still kill every child, only a SIGKILLed node leaves them behind.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childEnv } from "./child-env.ts";
import { onPath } from "./resolve-binaries.ts";

/** Puppeteer starts this script instead of Chromium (it takes no prefix arguments); it execs setpriv, then Chromium. */
const WRAPPER = fileURLToPath(new URL("../../bin/die-with-parent", import.meta.url));

let setpriv: string | null | undefined;
let warned = false;

/**
 * setpriv's path when it is installed and allowed to set a death signal here, else null. Probed once: the node's
 * start (describeChildLifetime) probes the configured path (SETPRIV_PATH), anyone else the one on PATH.
 */
export function findSetpriv(configured?: string): string | null {
  if (setpriv !== undefined) return setpriv;
  const candidate = configured || onPath("setpriv");
  // A seccomp profile may forbid prctl: probe with setpriv running itself rather than fail every launch later.
  const works = candidate ? spawnSync(candidate, ["--pdeathsig", "KILL", "--", candidate, "--version"], { stdio: "ignore", env: childEnv() }).status === 0 : false;
  setpriv = works ? candidate! : null;
  return setpriv;
}

/** One line for the node's start-up log; called before any child starts, so `setprivPath` is the one probed. */
export function describeChildLifetime(setprivPath?: string): string {
  const found = findSetpriv(setprivPath);
  return found
    ? `children die with the node (${found} --pdeathsig KILL)`
    : "setpriv (util-linux) not found: a node killed with SIGKILL would leave its Chromium and ffmpeg processes behind";
}

function fallback(): null {
  if (!warned) {
    warned = true;
    console.warn(`render-node: ${describeChildLifetime()}`);
  }
  return null;
}

/** The command that runs `file args` as a child killed with the node (execa, for ffmpeg and ffprobe). */
export function dieWithNode(file: string, args: string[]): { file: string; args: string[] } {
  const wrapper = findSetpriv() ?? fallback();
  return wrapper ? { file: wrapper, args: ["--pdeathsig", "KILL", "--", file, ...args] } : { file, args };
}

/**
 * Puppeteer's executablePath and env for a Chromium that dies with the node. The env is the whole of the child's
 * (child-env.ts's allow-list plus `env`), never the node's own: puppeteer hands it to spawn as it is.
 */
export function chromeDyingWithNode(chrome: string, env: Record<string, string> = {}): { executablePath: string; env: Record<string, string> } {
  const wrapper = findSetpriv() ?? fallback();
  if (!wrapper) return { executablePath: chrome, env: childEnv(env) };
  return { executablePath: WRAPPER, env: childEnv({ ...env, STUDIO_SETPRIV: wrapper, STUDIO_CHILD_BINARY: chrome }) };
}
