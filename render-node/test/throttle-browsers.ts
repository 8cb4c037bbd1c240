// Makes this machine slow for the browsers a test starts, and only for them: each Chromium process below this test's
// process is stopped (SIGSTOP) most of the time and let go (SIGCONT) in short slices, so the browsers get a set share
// of the clock whatever the scheduler does, and a frame takes several times its CPU cost on the clock. Busy-loop hogs
// did not do that: Chromium's many threads won most of the cores back, and a frame's wall time stayed close to its CPU
// cost. The loop runs in its own process (throttle-browsers-process.mjs) so it keeps time while this one renders.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const loop = fileURLToPath(new URL("./throttle-browsers-process.mjs", import.meta.url));

/** Starts throttling; the returned function stops it, once every browser it stopped runs again. */
export function throttleBrowsers({ share, runMs }: { share: number; runMs: number }): () => Promise<void> {
  const child = spawn(process.execPath, [loop, String(process.pid), String(share), String(runMs)], { stdio: "inherit" });
  return async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  };
}
