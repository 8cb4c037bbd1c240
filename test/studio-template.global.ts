// Global setup of the `node` and `node-shared` test projects: prepares one studio data folder (D1 migrations
// applied, a render-node key registered: `prepareDataDir`, the code `npm start` runs) before any test file starts a
// studio, once for the run however many projects ask (once-per-run.ts). Each studio of the end-to-end tests starts on
// its own copy of it (test/studio-data.ts), which saves the two wrangler runs, several seconds each, that every
// studio used to make. Copies share nothing after the copy: each test file still gets its own database, files and
// users.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { prepareDataDir } from "../scripts/lib/local-studio.ts";
import { oncePerRun } from "./once-per-run.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The prepared studio data folder every test studio copies (test/studio-data.ts). */
    studioTemplate: string;
  }
}

/** The run's prepared folder, made on first call. */
export function studioTemplate(): Promise<string> {
  return oncePerRun("studio-template", async () => {
    const dir = await mkdtemp(join(tmpdir(), "studio-template-"));
    await prepareDataDir(dir);
    return dir;
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await studioTemplate();
  project.provide("studioTemplate", dir);
  // Teardowns run when every file of the run has finished, so the first project's removes it for both.
  return () => rm(dir, { recursive: true, force: true });
}
