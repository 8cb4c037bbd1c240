// The render node process: configured from the environment, pulls render jobs from the Studio Worker.
//   STUDIO_URL (required), NODE_KEY (required), NODE_ID (default: hostname-pid), NODE_CONCURRENCY (default: cores),
//   CHROME_PATH, FFMPEG_PATH, FFPROBE_PATH (optional; otherwise Debian's packages, then the npm-shipped binaries),
//   PREVIEW_HOST (default 127.0.0.1), PREVIEW_FIRST_PORT (default 3002): where preview servers listen;
//   PREVIEW_IDLE_MS (default 600000): a preview with no request for this long stops.
//   PAGE_LOAD_TIMEOUT_MS, TIMELINE_TIMEOUT_MS, FRAME_TIMEOUT_MS, ENCODE_TIMEOUT_MS: stage bounds (src/stage-bounds.ts).
//   VIDEO_FRAMES_MAX_BYTES, VIDEO_FRAMES_MAX: a job's scratch budget for <video> frames (src/scratch-budget.ts).
//   HEALTH_PORT (default: none, no endpoint), HEALTH_HOST (default 127.0.0.1): GET /healthz (src/serve-health.ts).
// Two loops: renders, and browser work (snapshot, check, preview), so a long render never holds up a snapshot.
// Chromium and ffmpeg die with this process however it dies (src/child-lifetime.ts); the temp folders of a node
// that died are removed at start (src/scratch-dirs.ts).
import { availableParallelism, hostname } from "node:os";
import { describeChildLifetime } from "./src/system/child-lifetime.ts";
import { createNodeClient } from "./src/protocol/node-protocol-client.ts";
import { resolveBinaries } from "./src/system/resolve-binaries.ts";
import { runJobLoop } from "./src/job/run-job-loop.ts";
import { serveHealth } from "./src/job/serve-health.ts";
import { clearStaleScratchDirs, scratchRoot } from "./src/system/scratch-dirs.ts";
import { stageBounds } from "./src/bounds/stage-bounds.ts";
import { scratchBudget } from "./src/media/scratch-budget.ts";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`render-node: ${name} is required`);
    process.exit(2);
  }
  return value;
}

const studioUrl = required("STUDIO_URL");
const nodeKey = required("NODE_KEY");
const nodeId = process.env.NODE_ID || `${hostname()}-${process.pid}`;
const concurrency = process.env.NODE_CONCURRENCY ? Number(process.env.NODE_CONCURRENCY) : availableParallelism();
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`render-node: NODE_CONCURRENCY must be a positive integer; received ${JSON.stringify(process.env.NODE_CONCURRENCY)}`);
  process.exit(2);
}
const healthPort = process.env.HEALTH_PORT ? Number(process.env.HEALTH_PORT) : undefined;
if (healthPort !== undefined && !(Number.isInteger(healthPort) && healthPort >= 0 && healthPort <= 65535)) {
  console.error(`render-node: HEALTH_PORT must be a port number (0 picks a free one); received ${JSON.stringify(process.env.HEALTH_PORT)}`);
  process.exit(2);
}
try {
  stageBounds();
  scratchBudget();
} catch (error) {
  console.error(`render-node: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
const stale = await clearStaleScratchDirs();
if (stale.length) log(`removed ${stale.length} temp folder(s) of node processes that are gone from ${scratchRoot()}: ${stale.join(", ")}`);
const binaries = await resolveBinaries();
log(`render node ${nodeId}: ${studioUrl}, ${concurrency} browser(s); chrome ${binaries.chrome}, ffmpeg ${binaries.ffmpeg}; ${describeChildLifetime()}`);

const controller = new AbortController();
// `on`, not `once`: execa's signal-exit re-raises a signal when it sees no other listener, which would end the
// process before the running render is aborted and reported.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (controller.signal.aborted) return;
    log(`${signal}: stopping (a running render is aborted and reported as failed)`);
    controller.abort();
    // A last resort: the loops end (and the process exits) as soon as the running job has been reported.
    setTimeout(() => process.exit(0), 4000).unref();
  });
}
const client = createNodeClient(studioUrl, nodeKey);
const health = healthPort === undefined
  ? null
  : await serveHealth({ nodeId, startedAt: Date.now(), running: () => !controller.signal.aborted }, healthPort, process.env.HEALTH_HOST || "127.0.0.1");
if (health) log(`health: GET http://${process.env.HEALTH_HOST || "127.0.0.1"}:${health.port}/healthz`);
const previewFirstPort = process.env.PREVIEW_FIRST_PORT ? Number(process.env.PREVIEW_FIRST_PORT) : undefined;
const previewIdleMs = process.env.PREVIEW_IDLE_MS ? Number(process.env.PREVIEW_IDLE_MS) : undefined;
if (previewIdleMs !== undefined && !(Number.isInteger(previewIdleMs) && previewIdleMs >= 1000)) {
  console.error(`render-node: PREVIEW_IDLE_MS must be a whole number of milliseconds, at least 1000; received ${JSON.stringify(process.env.PREVIEW_IDLE_MS)}`);
  process.exit(2);
}
const shared = {
  client, nodeId, concurrency, binaries, signal: controller.signal, log,
  previewHost: process.env.PREVIEW_HOST || undefined, previewFirstPort, previewIdleMs,
};
await Promise.all([
  runJobLoop({ ...shared, kinds: ["render"] }),
  runJobLoop({ ...shared, kinds: ["snapshot", "check", "preview"] }),
]);
await health?.close();
log("stopped");
process.exit(0);
