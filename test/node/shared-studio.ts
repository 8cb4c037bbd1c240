// The studio the `node-shared` files share (test/shared-studio.global.ts starts it once for the run; see
// test/shared-studio-files.ts for what a file there may and may not do). A file signs in under names of its own and
// never stops the studio: the global setup does, after the last file.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import type { SharedStudioAddress } from "../shared-studio.global.ts";
import { devSignIn, type SignedInUser } from "./signed-in-studio.ts";

/** The shared studio's API and content origins. */
export function sharedStudio(): SharedStudioAddress {
  return inject("sharedStudio");
}

export interface SharedSignedIn extends SignedInUser {
  url: string;
  /** A scratch folder of the file's own. */
  work: string;
}

/** A user signed in on the shared studio under `name` (unique to the calling file), and a scratch folder. */
export async function signInToSharedStudio(name: string): Promise<SharedSignedIn> {
  const { url } = sharedStudio();
  const work = await mkdtemp(join(tmpdir(), `studio-${name}-`));
  return { url, work, ...(await devSignIn(url, name)) };
}
