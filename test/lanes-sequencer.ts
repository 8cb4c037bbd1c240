// Orders the test files so the workerd files (`worker` and `worker-shared`) and the light end-to-end files
// (`node-light`) run beside the end-to-end files instead of before or after them (test/README.md, "How long the suite
// takes"). vitest.config.ts puts `node`, `node-shared`, `node-light`, `worker` and `worker-shared` in one group of two
// workers; vitest hands the group's files to its two workers in this order, each to the first that is free (and a
// `worker-shared` file to the Miniflare the previous one left, when it is next).
// The end-to-end files run one at a time (their lock, test/one-at-a-time.global.ts): one that a worker takes while
// another runs waits and holds that worker. So the order is the longest end-to-end file first, then the workerd
// files (the other worker runs them beside it), each other end-to-end file placed where the workerd files before it
// are expected to outlast the end-to-end ones before it (test/lane-order.ts), by durations vitest cached or CI's.
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { laneOrder } from "./lane-order.ts";

/** Projects whose files take the one-at-a-time lock. */
const ONE_AT_A_TIME = new Set(["node", "node-shared"]);
/** The projects whose files run beside them: the light end-to-end files (no lock: test/light-end-to-end-files.ts),
 * the isolated workerd files, those sharing one Miniflare. */
const BESIDE = ["node-light", "worker", "worker-shared"];
/** The light end-to-end files go first among them, beside the longest end-to-end file (which mostly waits). */
const LIGHT_FIRST = (spec: TestSpecification) => (spec.project.name === "node-light" ? 0 : 1);

/**
 * The longest end-to-end files on CI (2bf799c, in ms), to lead with when the run has no durations of its own cached
 * (a fresh clone); a cached duration wins.
 */
const LONGEST_ON_CI: Record<string, number> = {
  "test/node/e2e-containers.test.ts": 157_000,
  "test/node/e2e-farm.test.ts": 46_000,
  // The light ones (fd2b0b3), beside them.
  "render-node/test/network-isolation.test.ts": 51_000,
  "render-node/test/slow-not-hung.test.ts": 43_000,
  "render-node/test/hang.test.ts": 14_000,
};

/**
 * A file's expected time by project when nothing better is known: CI's average at 2bf799c (node 704 s over 59 files,
 * node-shared 114 s over 14, worker 124 s over 42 and its workerd start, about 3.5 s, worker-shared 21 s over 22).
 */
const AVERAGE_ON_CI: Record<string, number> = { node: 12_000, "node-shared": 8_000, worker: 6_500, "worker-shared": 1_000 };
/** What an isolated workerd file costs besides its tests' duration (the one vitest caches): its workerd's start. */
const WORKERD_START_MS = 3_500;

export default class LanesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // A stable sort: the other files keep vitest's own order.
    const sorted = (await super.sort(files)).sort((a, b) => LIGHT_FIRST(a) - LIGHT_FIRST(b));
    const root = this.ctx.config.root;
    const project = (spec: TestSpecification) => spec.project.name;
    return laneOrder(
      sorted,
      (spec) => (ONE_AT_A_TIME.has(project(spec)) ? "lock" : BESIDE.includes(project(spec)) ? "beside" : "other"),
      (spec) => {
        const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
        if (cached !== undefined) return cached + (project(spec) === "worker" ? WORKERD_START_MS : 0);
        return LONGEST_ON_CI[spec.moduleId.slice(root.length + 1)] ?? AVERAGE_ON_CI[project(spec)] ?? 0;
      },
    );
  }
}
