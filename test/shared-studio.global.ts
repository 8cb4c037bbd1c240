// Global setup of the `node-shared` project: starts the one studio its files share (test/shared-studio-files.ts
// says which may): wrangler dev and a render node, on a copy of the run's prepared data folder, as
// startSignedInStudio starts one, and waits for the node's first claim (browser work answers 503 before it). Files
// read its addresses with `inject("sharedStudio")` (test/node/shared-studio.ts) and sign in under names of their
// own. In watch mode a rerun gets a fresh studio: a file run again would otherwise meet its own users of last time.
//
// The start is left running in the background (10 to 20 s on CI, while the run's first end-to-end files, which have
// studios of their own, go on): the addresses are known before it (its port is chosen first), and the files wait for
// the studio in their setup (test/studio-ready.setup.ts) through a readiness signal (test/readiness-signal.ts).
import { cp, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startStudio, type RunningStudio } from "../scripts/lib/local-studio.ts";
import { serveReadiness, type ReadinessSignal } from "./readiness-signal.ts";
import { studioTemplate } from "./studio-template.global.ts";

export interface SharedStudioAddress {
  /** The API and dashboard origin. */
  url: string;
  /** The content origin (play pages, project files, share links). */
  contentUrl: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    sharedStudio: SharedStudioAddress;
    /** The readiness signal of the shared studio's start (test/readiness-signal.ts). */
    sharedStudioReadyPort: number;
  }
}

interface Started {
  studio: RunningStudio;
  work: string;
}

async function start(reserved: ReservedPort): Promise<Started> {
  const began = Date.now();
  const work = await mkdtemp(join(tmpdir(), "studio-shared-"));
  const dataDir = join(work, "data");
  await cp(await studioTemplate(), dataDir, { recursive: true });
  let nodeUp: () => void = () => {};
  const nodeStarted = new Promise<void>((resolve) => (nodeUp = resolve));
  await reserved.release();
  const studio = await startStudio({
    port: reserved.port,
    dataDir,
    prepared: true,
    log: (line) => {
      if (line.includes("[node]") && line.includes("render node")) nodeUp();
      if (process.env.STUDIO_TEST_LOG) console.log(line);
    },
  });
  // A node that dies before it starts would leave the run waiting for ever: its exit ends the wait with its code.
  const nodeDied = new Promise<never>((_, reject) => studio.node?.once("exit", (code) => reject(new Error(`the shared studio's render node exited with ${code} before it started`))));
  try {
    await Promise.race([nodeStarted, nodeDied]);
  } catch (err) {
    await studio.stop();
    throw err;
  }
  // Its first claim follows the start line at once; the same pause startSignedInStudio makes.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(`shared studio for the node-shared files: ${studio.url} (started in ${Date.now() - began} ms)`);
  return { studio, work };
}

async function stop(started: Started): Promise<void> {
  await started.studio.stop();
  await rm(started.work, { recursive: true, force: true });
}

/** The addresses startStudio gives a studio on `port` (scripts/lib/local-studio.ts). */
const addressOn = (port: number): SharedStudioAddress => ({ url: `http://127.0.0.1:${port}`, contentUrl: `http://localhost:${port}` });

interface ReservedPort {
  port: number;
  release: () => Promise<void>;
}

/**
 * A loopback port from the OS, held (listened on) until released: the files are given the studio's addresses before
 * it starts, so no other studio's freePort() may get the port while the prepared folder is still being made. Between
 * the release and wrangler's bind another may by a rare chance, and then startStudio refuses it by name
 * (PortInUseError), failing the files with that.
 */
async function reservePort(): Promise<ReservedPort> {
  const holder = createServer();
  await new Promise<void>((resolve, reject) => holder.once("error", reject).listen(0, "127.0.0.1", resolve));
  const address = holder.address();
  if (!address || typeof address === "string") throw new Error(`the reserved port has no TCP address: ${address}`);
  // vitest's process must not outlive the run because the start failed before it released the port.
  holder.unref();
  return {
    port: address.port,
    release: () => (holder.listening ? new Promise<void>((resolve, reject) => holder.close((err) => (err ? reject(err) : resolve()))) : Promise.resolve()),
  };
}

/** Starts the studio in the background, its addresses and readiness signal provided to the files at once. */
async function startInBackground(project: TestProject): Promise<{ started: Promise<Started>; signal: ReadinessSignal }> {
  const reserved = await reservePort();
  const port = reserved.port;
  // Released by the start just before wrangler binds it, or here when the start failed before.
  const started = start(reserved).finally(reserved.release).then((running) => {
    const expected = addressOn(port);
    if (running.studio.url !== expected.url || running.studio.contentUrl !== expected.contentUrl) {
      throw new Error(`the shared studio answers at ${running.studio.url} and ${running.studio.contentUrl}, not at the ${expected.url} and ${expected.contentUrl} given to the files`);
    }
    return running;
  });
  const signal = await serveReadiness(started);
  project.provide("sharedStudio", addressOn(port));
  project.provide("sharedStudioReadyPort", signal.port);
  return { started, signal };
}

/** Stops a studio started in the background; one that failed to start has nothing to stop (its error went to the files). */
async function stopInBackground(current: { started: Promise<Started>; signal: ReadinessSignal }): Promise<void> {
  current.signal.close();
  const started = await current.started.catch((error: unknown) => {
    console.warn(`the shared studio had failed to start, nothing to stop: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  if (started) await stop(started);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let current = await startInBackground(project);
  project.onTestsRerun(async () => {
    await stopInBackground(current);
    current = await startInBackground(project);
  });
  return () => stopInBackground(current);
}
