// Global setup of the `node` and `node-shared` test projects: prepares one studio data folder (D1 migrations
// applied, a render-node key registered: `prepareDataDir`, the code `npm start` runs) before any test file starts a
// studio, once for the run however many projects ask (once-per-run.ts). Each studio of the end-to-end tests starts on
// its own copy of it (test/studio-data.ts), which saves the two wrangler runs, several seconds each, that every
// studio used to make. Copies share nothing after the copy: each test file still gets its own database, files and
// users.
//
// The two wrangler runs are left running in the background (beside the dashboard's build, the `pure` files and the
// workerd files, which need no studio): the end-to-end files wait for them in their setup (test/studio-ready.setup.ts)
// through a readiness signal (test/readiness-signal.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { settled } from "../core/settled.ts";
import { prepareDataDir } from "../scripts/lib/local-studio.ts";
import { oncePerRun } from "./once-per-run.ts";
import { serveReadiness } from "./readiness-signal.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The prepared studio data folder every test studio copies (test/studio-data.ts), once it is ready. */
    studioTemplate: string;
    /** The readiness signal of that folder (test/readiness-signal.ts). */
    studioTemplateReadyPort: number;
  }
}

/** The run's folder, made (empty) on first call. */
const templateDir = () => oncePerRun("studio-template-dir", () => mkdtemp(join(tmpdir(), "studio-template-")));

/** The run's prepared folder, prepared on first call. */
export function studioTemplate(): Promise<string> {
  return oncePerRun("studio-template", async () => {
    const dir = await templateDir();
    await prepareDataDir(dir);
    return dir;
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await templateDir();
  const prepared = studioTemplate();
  const signal = await oncePerRun("studio-template-ready", () => serveReadiness(prepared));
  project.provide("studioTemplate", dir);
  project.provide("studioTemplateReadyPort", signal.port);
  // Teardowns run when every file of the run has finished, so the first project's removes it for both (after the
  // wrangler runs, which write into it, have ended).
  return async () => {
    signal.close();
    await settled(prepared);
    await rm(dir, { recursive: true, force: true });
  };
}
