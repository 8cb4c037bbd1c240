// Global setup of the `node-shared` project: starts the one studio its files share (test/shared-studio-files.ts
// says which may): wrangler dev and a render node, on a copy of the run's prepared data folder, as
// startSignedInStudio starts one, and waits for the node's first claim (browser work answers 503 before it). Files
// read its addresses with `inject("sharedStudio")` (test/node/shared-studio.ts) and sign in under names of their
// own. In watch mode a rerun gets a fresh studio: a file run again would otherwise meet its own users of last time.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startStudio, type RunningStudio } from "../scripts/lib/local-studio.ts";
import { freePort } from "./browser/harness.ts";
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
  }
}

interface Started {
  studio: RunningStudio;
  work: string;
}

async function start(): Promise<Started> {
  const work = await mkdtemp(join(tmpdir(), "studio-shared-"));
  const dataDir = join(work, "data");
  await cp(await studioTemplate(), dataDir, { recursive: true });
  let nodeUp: () => void = () => {};
  const nodeStarted = new Promise<void>((resolve) => (nodeUp = resolve));
  const studio = await startStudio({
    port: await freePort(),
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
  return { studio, work };
}

async function stop(started: Started): Promise<void> {
  await started.studio.stop();
  await rm(started.work, { recursive: true, force: true });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const began = Date.now();
  let current = await start();
  console.log(`shared studio for the node-shared files: ${current.studio.url} (started in ${Date.now() - began} ms)`);
  project.provide("sharedStudio", { url: current.studio.url, contentUrl: current.studio.contentUrl });
  project.onTestsRerun(async () => {
    await stop(current);
    current = await start();
    project.provide("sharedStudio", { url: current.studio.url, contentUrl: current.studio.contentUrl });
  });
  return () => stop(current);
}
