// Six projects: "worker" and "worker-shared" run inside workerd with real D1, R2 and Durable Objects (a workerd per
// file, or one for all the files that can share storage); "pure" runs code that starts nothing (core, the pure parts
// of the render node, the CLI and the dashboard) in one shared worker; "node" runs the render node and the
// end-to-end tests that start the real Worker and render node as processes; "node-shared" the end-to-end tests that
// share one such studio; "node-light" the render node's end-to-end tests that mostly wait, beside the others.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { PURE_TEST_FILES } from "./test/pure-test-files.ts";
import { fakeOAuthProviders } from "./test/worker/fake-oauth-providers.ts";
import { SHARED_STORAGE_FILES } from "./test/worker/shared-storage-files.ts";
import { SHARED_STUDIO_FILES } from "./test/shared-studio-files.ts";
import { LIGHT_END_TO_END_FILES } from "./test/light-end-to-end-files.ts";
import LanesSequencer from "./test/lanes-sequencer.ts";

/**
 * The group of the `node`, `node-shared`, `node-light`, `worker` and `worker-shared` projects: two vitest workers,
 * one for an end-to-end file (they take a lock, one file at a time: test/one-at-a-time.global.ts) and one for the
 * workerd files and the light end-to-end files beside it (test/lanes-sequencer.ts orders the group). On two cores an
 * end-to-end file mostly waits on Chromium, ffmpeg and its studio, and a workerd file is light (test/README.md, "How
 * long the suite takes").
 */
const LANES = { groupOrder: 1, maxWorkers: 2 };

/** What the `node` and `node-shared` projects share (and `node-light`, but the setup files): the lanes, waiting for
 * what their studios need and for the one-at-a-time lock, time for real processes. */
const END_TO_END = {
  maxWorkers: LANES.maxWorkers,
  sequence: { groupOrder: LANES.groupOrder },
  setupFiles: ["./test/studio-ready.setup.ts", "./test/one-at-a-time.setup.ts"],
  testTimeout: 120_000,
  hookTimeout: 180_000,
};
/** Their global setups: what their studios need (the page runtime, a prepared data folder, started first and left
 * preparing in the background while the dashboard builds and the first files run; the dashboard), the lock. */
const END_TO_END_SETUP = [
  "./test/build-page-runtime.global.ts",
  "./test/studio-template.global.ts",
  "./test/build-dashboard.global.ts",
  "./test/one-at-a-time.global.ts",
];

/** The Worker inside workerd (one Miniflare per vitest worker), as both workerd projects run it. */
const workerd = () =>
  cloudflareTest(async () => ({
    main: "./worker/index.ts",
    // Bindings come from wrangler.toml, OAUTH_KV (worker/oauth/) included: miniflare simulates the KV namespace.
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      outboundService: fakeOAuthProviders,
      bindings: {
        TEST_MIGRATIONS: await readD1Migrations("./migrations"),
        DEV_LOGIN: "true",
        BASE_URL: "http://studio.test",
        CONTENT_URL: "http://content.studio.test",
        TOKEN_SECRET: "test-token-secret-0123456789abcdef",
        MAX_FILE_BYTES: "1048576",
        // A small storage quota (8 MiB per user) so filling it is quick (limits.test.ts).
        MAX_STORAGE_BYTES: "8388608",
        ADMIN_USER_IDS: "",
        // Fake OAuth apps: the tests check our redirects and state handling, never the providers.
        GITHUB_CLIENT_ID: "test-github-client",
        GITHUB_CLIENT_SECRET: "test-github-secret",
        GOOGLE_CLIENT_ID: "test-google-client",
        GOOGLE_CLIENT_SECRET: "test-google-secret",
        // Short server-side timeouts so the 504 paths of snapshot/check/preview are testable.
        NODE_PICKUP_TIMEOUT_MS: "1500",
        BROWSER_JOB_TIMEOUT_MS: "4000",
        // A short wall-clock limit so a render that runs past it can be watched ending (render.test.ts).
        MAX_RENDER_MS: "6000",
        // Test-only: the MCP render tool answers with a handle after 2.5 s rather than 25 (mcp-results.test.ts).
        MCP_RENDER_WAIT_MS: "2500",
      },
    },
  }));

export default defineConfig({
  test: {
    reporters: ["default", "./test/summary-reporter.ts"],
    sequence: { sequencer: LanesSequencer },
    // The Worker's one JSON line per request (worker/http/request-log.ts) is for production logs; thousands of them
    // would bury the test output. Tests that care read them through a console spy.
    onConsoleLog: (log: string) => !log.includes('"event":"request"'),
    projects: [
      {
        plugins: [workerd()],
        test: {
          name: "worker",
          // Each file in a workerd of its own, one at a time, beside the end-to-end files (LANES above).
          maxWorkers: LANES.maxWorkers,
          sequence: { groupOrder: LANES.groupOrder },
          globalSetup: ["./test/build-page-runtime.global.ts", "./test/worker-assets.global.ts"],
          include: ["test/worker/**/*.test.ts"],
          exclude: [...SHARED_STORAGE_FILES, "**/node_modules/**"],
          setupFiles: ["./test/worker/setup.ts"],
        },
      },
      {
        plugins: [workerd()],
        test: {
          name: "worker-shared",
          // One Miniflare (workerd, D1, R2, Durable Objects) for these files, one after another, each module imported
          // once: no workerd start, module fetch and migration run per file (test/worker/shared-storage-files.ts says
          // which files may share storage). Beside the end-to-end files (LANES above); when both workers are free
          // for these files, the second starts a Miniflare of its own.
          isolate: false,
          maxWorkers: LANES.maxWorkers,
          sequence: { groupOrder: LANES.groupOrder },
          globalSetup: ["./test/build-page-runtime.global.ts", "./test/worker-assets.global.ts"],
          include: SHARED_STORAGE_FILES,
          setupFiles: ["./test/worker/setup.ts"],
        },
      },
      {
        test: {
          name: "pure",
          // Workers shared by all of them, each shared module imported once per worker (test/pure-test-files.ts says
          // which files may be here). In the lanes' group, first (test/lanes-sequencer.ts), so a broken pure test is
          // the first failure a run shows, and on both workers while the first end-to-end file waits for its
          // studio's prepared data folder (test/studio-template.global.ts), instead of alone before the group.
          isolate: false,
          maxWorkers: LANES.maxWorkers,
          sequence: { groupOrder: LANES.groupOrder },
          // core's play page embeds the page runtime's built scripts.
          globalSetup: ["./test/build-page-runtime.global.ts"],
          include: PURE_TEST_FILES,
        },
      },
      {
        test: {
          name: "node",
          // One file at a time (the lock of test/one-at-a-time.setup.ts), a workerd file beside it (LANES above). Three
          // at a time were tried (test/README.md, "How long the suite takes"): on a CI clone the whole run took 1275 s
          // against 1319 s, and the dashboard's full-page screenshots and one-second polls timed out while two other
          // files rendered beside them.
          ...END_TO_END,
          globalSetup: END_TO_END_SETUP,
          include: ["render-node/**/*.test.ts", "bench/**/*.test.ts", "test/node/**/*.test.ts", "test/browser/**/*.test.ts"],
          exclude: [...PURE_TEST_FILES, ...SHARED_STUDIO_FILES, ...LIGHT_END_TO_END_FILES, "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "node-light",
          // Render-node files that mostly wait and use little CPU (test/light-end-to-end-files.ts says which may be
          // here): they take no lock, so one runs beside a `node` or `node-shared` file, in the place of a workerd
          // file (test/lanes-sequencer.ts), or beside another light file. Never more: the group has two workers.
          ...END_TO_END,
          setupFiles: [],
          // The render node serves the page runtime; these files start no studio.
          globalSetup: ["./test/build-page-runtime.global.ts"],
          include: LIGHT_END_TO_END_FILES,
        },
      },
      {
        test: {
          name: "node-shared",
          // One studio (wrangler dev and a render node) for all of these files, started in the background by the last
          // global setup (the files wait for it: test/studio-ready.setup.ts) and stopped after the last file
          // (test/shared-studio-files.ts says which files may share it). One file at a time with `node`'s (the same
          // lock), each in a worker of its own: a file's renders and browsers never run beside another's.
          ...END_TO_END,
          globalSetup: [...END_TO_END_SETUP, "./test/shared-studio.global.ts"],
          include: SHARED_STUDIO_FILES,
        },
      },
    ],
  },
});
