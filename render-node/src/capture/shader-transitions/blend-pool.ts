// One blend worker (blend-worker.ts) for one browser's share of a render, started at its first transition frame
// (a render without shader transitions starts none) and ended with the share. One job at a time: the capture loop
// waits for each blended frame before it moves on, as it waits for each screenshot.
import { Worker } from "node:worker_threads";
import type { Accents } from "./shader-blends.ts";

export interface BlendJob {
  shader: string;
  from: Uint8Array;
  to: Uint8Array;
  width: number;
  height: number;
  progress: number;
  accents: Accents;
}

export type BlendReply = { ok: true; out: Uint8Array } | { ok: false; error: string };

export interface Blender {
  blend(job: BlendJob): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function startBlender(): Blender {
  let worker: Worker | null = null;
  let pending: { resolve: (out: Uint8Array) => void; reject: (error: Error) => void } | null = null;
  const fail = (error: Error) => {
    pending?.reject(error);
    pending = null;
    worker = null;
  };
  const ensure = (): Worker => {
    if (worker) return worker;
    const started = new Worker(new URL("./blend-worker.ts", import.meta.url));
    started.on("message", (reply: BlendReply) => {
      const waiting = pending;
      pending = null;
      if (!waiting) return;
      if (reply.ok) waiting.resolve(reply.out);
      else waiting.reject(new Error(`shader transition blend failed: ${reply.error}`));
    });
    started.on("error", (error) => fail(error));
    started.on("exit", (code) => {
      if (worker === started) fail(new Error(`shader transition blend worker exited (code ${code})`));
    });
    worker = started;
    return started;
  };
  return {
    blend(job) {
      if (pending) return Promise.reject(new Error("a shader transition blend is already running"));
      const target = ensure();
      return new Promise<Uint8Array>((resolve, reject) => {
        pending = { resolve, reject };
        target.postMessage(job, [job.from.buffer, job.to.buffer] as ArrayBuffer[]);
      });
    },
    async close() {
      const running = worker;
      worker = null;
      fail(new Error("shader transition blend worker closed"));
      if (running) await running.terminate();
    },
  };
}
