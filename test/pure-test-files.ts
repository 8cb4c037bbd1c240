// The test files of the `pure` project (vitest.config.ts): code under test that starts no process, browser, server
// or studio and leaves nothing behind in the process (no environment, no global, no mock left set). They run one
// after another in one worker that imports each shared module once (`isolate: false`), instead of paying a worker
// start and a fresh import of vitest and the code under test each (about half a second a file, test/README.md,
// "How long the suite takes"). A file that starts a process or a browser belongs in the `node` project.
export const PURE_TEST_FILES = [
  "core/**/*.test.ts",
  "bench/lib/*.test.ts",
  "render-node/test/browser-pure.test.ts",
  "render-node/test/carry-pure.test.ts",
  "render-node/test/frame-reuse-pure.test.ts",
  "render-node/test/gsap-url.test.ts",
  "render-node/test/network-pure.test.ts",
  "render-node/test/pure.test.ts",
  "render-node/test/refusal.test.ts",
  "render-node/test/shader-transitions-pure.test.ts",
  "render-node/test/video-extraction-plan.test.ts",
  "test/browser/dashboard-logic.test.ts",
  "test/node/cli-local-files.test.ts",
  "test/node/cli-terminal-safe.test.ts",
  "test/node/config-docs.test.ts",
  "test/node/idea-bot-candidates.test.ts",
  "test/node/lane-order.test.ts",
  "test/node/mcp-task-pure.test.ts",
  "test/node/render-life.test.ts",
  "test/node/render-budget-pure.test.ts",
  "test/node/render-quote.test.ts",
  "test/node/security-boundaries.test.ts",
  "test/node/split-plan.test.ts",
  "test/node/startup-imports.test.ts",
  "test/node/webhook-url.test.ts",
];
