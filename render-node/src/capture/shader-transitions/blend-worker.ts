// Worker thread that blends a shader transition's two scenes (blend-pool.ts sends the jobs): a 1080p frame costs
// tens to hundreds of milliseconds of arithmetic, which would otherwise stall the node's event loop, and with it
// every other browser's seeks and encoder pipes.
import { parentPort } from "node:worker_threads";
import { blendScenes } from "./shader-blends.ts";
import type { BlendJob, BlendReply } from "./blend-pool.ts";

const port = parentPort;
if (!port) throw new Error("blend-worker.ts runs as a worker thread");
port.on("message", (job: BlendJob) => {
  try {
    const { width, height } = job;
    const out = new Uint8Array(width * height * 4);
    blendScenes(job.shader, { from: { data: job.from, width, height }, to: { data: job.to, width, height }, p: job.progress, width, height, accents: job.accents }, out);
    const reply: BlendReply = { ok: true, out };
    port.postMessage(reply, [out.buffer]);
  } catch (error) {
    const reply: BlendReply = { ok: false, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
