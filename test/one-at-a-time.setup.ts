// Setup file of the `node` and `node-shared` projects: waits for the run's one-file-at-a-time lock
// (test/one-at-a-time.global.ts) before the file's first import, and hands it on after the file's last afterAll
// (vitest runs a setup file's afterAll after the file's own ones). A workerd file runs beside this one; another
// end-to-end file never does.
//
// While it waits (the file before it still running), it evaluates the modules most of these files import: the
// render node, the local studio, the two browser drivers. Imported after the lock they cost a second or more per
// file on the lock's clock (about 5 s for all of them under load); here the file's own import finds them loaded.
// Waiting is this file's setup time, not its tests', so a file's duration stays its own (the lane order reads it).
import { once } from "node:events";
import { connect } from "node:net";
import { afterAll, inject } from "vitest";
import { settled } from "../core/settled.ts";

const lock = connect(inject("oneAtATimePort"), "127.0.0.1");
const granted = Promise.race([
  once(lock, "data"),
  once(lock, "close").then(() => {
    throw new Error("the one-at-a-time lock closed before it let this file start");
  }),
]);
// Awaited below, after the modules: until then a closed lock must not be an unhandled rejection.
void settled(granted);

await Promise.all([
  import("../render-node/src/render-project.ts"),
  import("../render-node/src/system/resolve-binaries.ts"),
  import("../scripts/lib/local-studio.ts"),
  import("playwright-core"),
  import("puppeteer-core"),
]);
await granted;

afterAll(() => {
  lock.end();
});
