// Global setup of the `node` and `node-shared` projects: the lock that keeps their files one at a time now that the
// `worker` project's files run beside them (vitest.config.ts: one group of two workers, test/lanes-sequencer.ts
// orders it). Two end-to-end files at once race for ports and starve each other's timed checks (test/README.md, "How
// long the suite takes"); a workerd file beside one is light. Each such file connects in its setup
// (test/one-at-a-time.setup.ts) and starts when the lock writes to it; it hands the lock on when its socket closes,
// which its last afterAll does, and its process's end does too if it dies first. One lock for the run, however
// many of the two projects run (once-per-run.ts).
import { createServer, type Server, type Socket } from "node:net";
import type { TestProject } from "vitest/node";
import { oncePerRun } from "./once-per-run.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The loopback port of the run's one-file-at-a-time lock. */
    oneAtATimePort: number;
  }
}

/** Grants the lock to one socket at a time, in the order they connected. */
function lockServer(): Server {
  const waiting: Socket[] = [];
  let holder: Socket | undefined;
  const grantNext = () => {
    if (holder) return;
    holder = waiting.shift();
    holder?.write("go\n");
  };
  return createServer((socket) => {
    waiting.push(socket);
    socket.on("error", (err) => console.warn(`one-at-a-time lock: a test file's socket failed (${err.message}); its lock is handed on`));
    socket.on("close", () => {
      const index = waiting.indexOf(socket);
      if (index !== -1) waiting.splice(index, 1);
      if (holder === socket) holder = undefined;
      grantNext();
    });
    grantNext();
  });
}

function startLock(): Promise<{ server: Server; port: number }> {
  return oncePerRun("one-at-a-time-lock", async () => {
    const server = lockServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (!address || typeof address === "string") throw new Error(`the one-at-a-time lock has no TCP address: ${address}`);
    // The lock's process is vitest's own: it must not outlive the run because a file kept a socket open.
    server.unref();
    return { server, port: address.port };
  });
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { server, port } = await startLock();
  project.provide("oneAtATimePort", port);
  // Both projects' teardowns run after the run's last file; the first closes it, the second finds it closed.
  return () => {
    if (server.listening) server.close();
  };
}
