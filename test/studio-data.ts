// A fresh studio data folder for one end-to-end test file: a copy of the folder test/studio-template.global.ts
// prepared once for the run (migrated D1, a node key). Start the studio on it with `prepared: true`.
import { cp } from "node:fs/promises";
import { inject } from "vitest";

/** Copies the prepared data folder to `dataDir` (made if missing) and returns `dataDir`. */
export async function preparedDataDir(dataDir: string): Promise<string> {
  await cp(inject("studioTemplate"), dataDir, { recursive: true });
  return dataDir;
}
