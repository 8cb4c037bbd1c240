// Reads a timeline written by test/timeline-reporter.ts and prints where the run's wall time went: the global setups
// (before the first file), the `pure` group, and the one-at-a-time lock's lane file by file (when each held the
// lock, how much of that was its import and its tests, and the gaps in which no end-to-end file held it).
//
//   node_modules/.bin/node test/timeline-gaps.ts /tmp/run.jsonl
import { readFileSync } from "node:fs";
import type { TimelineEvent } from "./timeline-reporter.ts";

const LOCK_PROJECTS = new Set(["node", "node-shared"]);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const path = process.argv[2];
if (!path) throw new Error("usage: node test/timeline-gaps.ts <timeline.jsonl>");
const events = readFileSync(path, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as TimelineEvent);

const runStart = events.find((e) => e.event === "run-start")?.at ?? 0;
const runEnd = events.findLast((e) => e.event === "run-end")?.at ?? events.at(-1)!.at;
const queued = events.filter((e) => e.event === "queued");
const ends = events.filter((e) => e.event === "end");
const firstQueued = Math.min(...queued.map((e) => e.at));
console.log(`run ${s(runEnd - runStart)}: global setups (run start to first file) ${s(firstQueued - runStart)}`);

const byProject = new Map<string, TimelineEvent[]>();
for (const end of ends) byProject.set(end.project!, [...(byProject.get(end.project!) ?? []), end]);
for (const [project, list] of byProject) {
  const first = Math.min(...queued.filter((e) => e.project === project).map((e) => e.at));
  const last = Math.max(...list.map((e) => e.at));
  const sum = (key: "testsMs" | "importMs" | "setupMs") => list.reduce((total, e) => total + (e[key] ?? 0), 0);
  console.log(
    `${project}: ${list.length} files, first queued at ${s(first)}, last ended at ${s(last)}; tests ${s(sum("testsMs"))}, imports ${s(sum("importMs"))}, setup files ${s(sum("setupMs"))}`,
  );
}

// The lock lane: a file holds the lock from the end of its setup files (the lock is their last wait) to its end.
const lockFiles = ends
  .filter((e) => LOCK_PROJECTS.has(e.project!))
  .map((end) => {
    const q = queued.find((e) => e.file === end.file)!;
    const granted = end.at - (end.importMs ?? 0) - (end.testsMs ?? 0);
    return { file: end.file!, queued: q.at, granted, end: end.at, importMs: end.importMs ?? 0, testsMs: end.testsMs ?? 0 };
  })
  .sort((a, b) => a.granted - b.granted);
if (lockFiles.length > 0) {
  let gaps = 0;
  let previousEnd = lockFiles[0]!.granted;
  console.log(`\nlock lane: first granted at ${s(lockFiles[0]!.granted)}, last ended at ${s(lockFiles.at(-1)!.end)}`);
  console.log("granted   gap-before  queued-before  import   tests    other  file");
  for (const f of lockFiles) {
    const gap = Math.max(0, f.granted - previousEnd);
    gaps += gap;
    const other = f.end - f.granted - f.importMs - f.testsMs;
    console.log(
      [s(f.granted), s(gap), s(f.granted - f.queued), s(f.importMs), s(f.testsMs), s(other)].map((c) => c.padStart(9)).join(" ") + `  ${f.file}`,
    );
    previousEnd = f.end;
  }
  const imports = lockFiles.reduce((t, f) => t + f.importMs, 0);
  const tests = lockFiles.reduce((t, f) => t + f.testsMs, 0);
  console.log(
    `\nlock lane totals: tests ${s(tests)}, imports after the lock ${s(imports)}, gaps with no file holding it ${s(gaps)}, ` +
      `before its first grant ${s(lockFiles[0]!.granted - runStart)}, after its last end ${s(runEnd - lockFiles.at(-1)!.end)}`,
  );
}
