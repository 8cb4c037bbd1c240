// The end-to-end test files of the `node-light` project (vitest.config.ts): render-node files that mostly wait (on
// bounds that must lapse, on browsers stopped on purpose, on sleeps between hostile pages) and use a small share of a
// core while they do. They take no one-at-a-time lock (test/one-at-a-time.setup.ts), so one of them runs beside the
// end-to-end file of the moment instead of after it, or beside another light one (the group has two workers: never
// more than two files at once). A file belongs here only if
// - it starts no studio (wrangler dev) and no render node: every port it listens on comes from the OS;
// - it reads and stops only processes below its own (listDescendants of its own pid, never all Chromiums);
// - its timed checks hold with a busy file beside it (bounds with slack, as on a loaded machine);
// - its CPU is low: measured with `/usr/bin/time npm test -- <file>`, less the 17 CPU-s of a file that does nothing
//   (the run's global setups), over the file's duration on CI (test/README.md, "How long the suite takes").
export const LIGHT_END_TO_END_FILES = [
  // 9 CPU-s over 43 s on CI: its browsers are stopped (SIGSTOP) 92 % of the time, the seek bound lapses.
  "render-node/test/slow-not-hung.test.ts",
  // 6 CPU-s over 14 s: page loads, seeks and timeline registrations that never end, waited out to their bounds.
  "render-node/test/hang.test.ts",
  // 16 CPU-s over 51 s: one small page per hostile channel, each given time to try and fail.
  "render-node/test/network-isolation.test.ts",
];
