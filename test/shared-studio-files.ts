// The end-to-end test files of the `node-shared` project (vitest.config.ts): they run one after another against
// ONE studio (wrangler dev and a render node on the default configuration), started once for the run by
// test/shared-studio.global.ts, instead of a studio each. Each sees what the files before it left: that is safe
// for a file that signs in under names no other file uses (so its account starts empty: storage, projects,
// renders, tokens), asserts only what its own users made or a difference it caused, and never stops, restarts or
// reconfigures the studio or its node. Files that need other variables, the container mode, their own or no render
// node (a render that must wait, go to a node they start, or lose its node), an admin (ADMIN_USER_IDS needs a
// restart) or an empty studio stay in `node` with a studio each. Sharing saves a wrangler dev and render-node start per file
// (test/README.md, "How long the suite takes").
export const SHARED_STUDIO_FILES = [
  "test/node/e2e-batch.test.ts",
  "test/node/e2e-cli.test.ts",
  // Reads the idea board and the research list, which every file shares: it counts only its own ideas and votes.
  "test/node/e2e-idea-bot.test.ts",
  "test/node/e2e-mcp.test.ts",
  "test/node/e2e-oauth.test.ts",
  "test/node/e2e-raw-urls.test.ts",
  "test/browser/content-attack.test.ts",
  "test/browser/dashboard-answers.test.ts",
  "test/browser/dashboard-batch.test.ts",
  "test/browser/dashboard-editor.test.ts",
  "test/browser/dashboard-live.test.ts",
  // Cancels its own render once its live view plays.
  "test/browser/dashboard-live-render.test.ts",
  "test/browser/dashboard-posters.test.ts",
  // Lays out the idea board and research pages, everyone's, on a 360 px phone: whatever the files before it wrote
  // must fit too. Its full-page screenshots of the docs (33k and 105k px tall) ran past 30 s here on a loaded
  // machine; `shoot` (test/browser/harness.ts) now takes a page's top 4,000 px.
  "test/browser/dashboard-pages.test.ts",
  "test/browser/dashboard.test.ts",
  "test/browser/play-gsap.test.ts",
  "test/browser/research-cover.test.ts",
];
