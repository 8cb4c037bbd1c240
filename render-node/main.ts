// The render node process: configured from the environment once, here (src/config/node-config.ts lists every
// variable; render-node/README.md's table explains them), then pulls jobs from the Studio Worker.
// Two loops: renders, and browser work (snapshot, check, preview), so a long render never holds up a snapshot.
// Chromium and ffmpeg die with this process however it dies (src/system/child-lifetime.ts); the temp folders of a
// node that died are removed at start (src/system/scratch-dirs.ts).
import { describeChildLifetime } from "./src/system/child-lifetime.ts";
import { parseNodeConfig } from "./src/config/node-config.ts";
import { createNodeClient } from "./src/protocol/node-protocol-client.ts";
import { resolveBinaries } from "./src/system/resolve-binaries.ts";
import { runJobLoop } from "./src/job/run-job-loop.ts";
import { serveHealth } from "./src/job/serve-health.ts";
import { JobsInHand } from "./src/job/jobs-in-hand.ts";
import { clearStaleScratchDirs, scratchRoot } from "./src/system/scratch-dirs.ts";

// The one read of the environment: a bad value stops the node here, naming the variable (exit code 2).
const config = (() => {
  try {
    return parseNodeConfig(process.env);
  } catch (error) {
    console.error(`render-node: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
})();
const { studioUrl, nodeKey, nodeId, concurrency } = config;
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
const stale = await clearStaleScratchDirs();
if (stale.length) log(`removed ${stale.length} temp folder(s) of node processes that are gone from ${scratchRoot()}: ${stale.join(", ")}`);
const binaries = await resolveBinaries(config.binaries);
log(`render node ${nodeId}: ${studioUrl}, ${concurrency} browser(s); chrome ${binaries.chrome}, ffmpeg ${binaries.ffmpeg}; ${describeChildLifetime(config.setprivPath)}`);

const controller = new AbortController();
// `on`, not `once`: execa's signal-exit re-raises a signal when it sees no other listener, which would end the
// process before the running render is aborted and reported.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (controller.signal.aborted) return;
    log(`${signal}: stopping (a running render, segment, join, snapshot or check is aborted and given back: the Worker queues it again at once for another node)`);
    controller.abort();
    // A last resort: the loops end (and the process exits) as soon as the running job has been reported.
    setTimeout(() => process.exit(0), 4000).unref();
  });
}
const client = createNodeClient(studioUrl, nodeKey);
const inHand = new JobsInHand();
const health = config.health.port === undefined
  ? null
  : await serveHealth({ nodeId, startedAt: Date.now(), running: () => !controller.signal.aborted, jobs: () => inHand.count }, config.health.port, config.health.host);
if (health) log(`health: GET http://${config.health.host}:${health.port}/healthz`);
const shared = {
  client, nodeId, concurrency, binaries, signal: controller.signal, log, inHand,
  limits: { bounds: config.bounds, scratchBudget: config.scratchBudget, frameReuse: config.frameReuse },
  previewHost: config.preview.host, previewFirstPort: config.preview.firstPort, previewIdleMs: config.preview.idleMs,
};
await Promise.all([
  runJobLoop({ ...shared, kinds: ["render"] }),
  runJobLoop({ ...shared, kinds: ["snapshot", "check", "preview"] }),
]);
await health?.close();
log("stopped");
process.exit(0);
