// Setup file of the `node` and `node-shared` projects: waits for the run's one-file-at-a-time lock
// (test/one-at-a-time.global.ts) before the file's first import, and hands it on after the file's last afterAll
// (vitest runs a setup file's afterAll after the file's own ones). A workerd file runs beside this one; another
// end-to-end file never does.
import { once } from "node:events";
import { connect } from "node:net";
import { afterAll, inject } from "vitest";

const lock = connect(inject("oneAtATimePort"), "127.0.0.1");
await Promise.race([
  once(lock, "data"),
  once(lock, "close").then(() => {
    throw new Error("the one-at-a-time lock closed before it let this file start");
  }),
]);

afterAll(() => {
  lock.end();
});
