// Setup file of the `node` and `node-shared` projects, before the one-at-a-time lock's (test/one-at-a-time.setup.ts):
// waits for what the global setups left running in the background that the file's studio needs (test/
// readiness-signal.ts): the prepared data folder every studio copies (test/studio-template.global.ts) and, for a
// `node-shared` file, the shared studio itself (test/shared-studio.global.ts). A file waits here without a place in
// the lock's queue, so the lock goes to files that can start meanwhile. If that work failed, the file fails with its
// error.
import { inject } from "vitest";
import { awaitReadiness } from "./readiness-signal.ts";

await awaitReadiness(inject("studioTemplateReadyPort"), "preparing the studio data folder (test/studio-template.global.ts)");
// Provided only to the `node-shared` project.
const sharedStudioReadyPort = inject("sharedStudioReadyPort") as number | undefined;
if (sharedStudioReadyPort !== undefined) await awaitReadiness(sharedStudioReadyPort, "starting the shared studio (test/shared-studio.global.ts)");
