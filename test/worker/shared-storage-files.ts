// The workerd test files of the `worker-shared` project (vitest.config.ts): they run one after another in one
// Miniflare (or two, when both of the group's vitest workers are free for them: test/lanes-sequencer.ts), so each
// sees the D1 rows, R2 objects and Durable Objects the files before it in its Miniflare left. That is safe for a
// file that only reads and asserts what its own users made (each signs in under names no other file uses) and
// neither claims jobs (a claim takes any user's queued job), nor reads the idea board, the queue, the JobBoard's idle
// nodes, rate-limit counters or other global counts, nor leaves a mock or a spy set. Files that do stay in the
// `worker` project, one workerd each. Sharing saves a workerd start, the Worker's module fetch and the migrations
// per file (test/README.md, "How long the suite takes").
export const SHARED_STORAGE_FILES = [
  "test/worker/agent-docs.test.ts",
  "test/worker/batch-round-trips.test.ts",
  "test/worker/byte-ranges.test.ts",
  "test/worker/config.test.ts",
  // Counts the queue as a difference around its own jobs, which it leaves queued: no file here claims them.
  "test/worker/container-scaling.test.ts",
  "test/worker/content-origin.test.ts",
  // Its own users' rows, files and Durable Object only; its revoked token's new hash is its own (hashes are unique).
  "test/worker/credential-gate-effects.test.ts",
  "test/worker/docs-text.test.ts",
  "test/worker/docs-token.test.ts",
  "test/worker/files.test.ts",
  "test/worker/headers.test.ts",
  "test/worker/identity.test.ts",
  "test/worker/lint.test.ts",
  "test/worker/mcp-origin.test.ts",
  "test/worker/mcp-resources.test.ts",
  "test/worker/mcp-tool-args.test.ts",
  "test/worker/oauth-client-metadata.test.ts",
  "test/worker/play-gsap.test.ts",
  "test/worker/projects.test.ts",
  "test/worker/request-log.test.ts",
  "test/worker/route-declarations.test.ts",
  "test/worker/sql-guard.test.ts",
  // Its own users' files and ledgers (users named for it, or random ids), its own ledger's alarm.
  "test/worker/storage-races.test.ts",
  "test/worker/stream-round-trips.test.ts",
];
