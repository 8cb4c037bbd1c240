// Orders the test files so the workerd files (`worker` and `worker-shared`) and the light end-to-end files
// (`node-light`) run beside the end-to-end files instead of before or after them (test/README.md, "How long the suite
// takes"). vitest.config.ts puts `node`, `node-shared`, `node-light`, `worker` and `worker-shared` in one group of two
// workers; vitest hands the group's files to its two workers in this order, each to the first that is free (and a
// `worker-shared` file to the Miniflare the previous one left, when it is next).
// The end-to-end files run one at a time (their lock, test/one-at-a-time.global.ts) and set the run's time: the order
// keeps the lock busy, the longest end-to-end file first and each next one taken while the one before still holds
// the lock, the workerd files fitted beside them (test/lane-order.ts), by the durations CI measured.
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { CI_FILE_DURATIONS_MS } from "./ci-file-durations.ts";
import { laneOrder } from "./lane-order.ts";

/** Projects whose files take the one-at-a-time lock. */
const ONE_AT_A_TIME = new Set(["node", "node-shared"]);
/** The projects whose files run beside them: the light end-to-end files (no lock: test/light-end-to-end-files.ts),
 * the isolated workerd files, those sharing one Miniflare. */
const BESIDE = ["node-light", "worker", "worker-shared"];
/**
 * A file's expected time by project when CI has not measured it (a new file) and vitest has cached nothing for it:
 * CI's average at 2bf799c (node 704 s over 59 files, node-shared 114 s over 14, worker 124 s over 42 and its workerd
 * start, about 3.5 s, worker-shared 21 s over 22).
 */
const AVERAGE_ON_CI: Record<string, number> = { node: 12_000, "node-shared": 8_000, worker: 6_500, "worker-shared": 1_000 };
/** What an isolated workerd file costs besides its tests' duration (the one CI and vitest measure): its workerd's start. */
const WORKERD_START_MS = 3_500;

export default class LanesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const project = (spec: TestSpecification) => spec.project.name;
    return laneOrder(
      sorted,
      (spec) => (ONE_AT_A_TIME.has(project(spec)) ? "lock" : BESIDE.includes(project(spec)) ? "beside" : "other"),
      (spec) => {
        // CI's durations first: this machine's cache (if any) holds partial runs, perhaps under another load, in
        // another scale than the rest of the files.
        const measured = CI_FILE_DURATIONS_MS[spec.moduleId.slice(root.length + 1)] ?? this.ctx.cache.getTestSpecificationResult(spec)?.duration;
        if (measured === undefined) return AVERAGE_ON_CI[project(spec)] ?? 0;
        return measured + (project(spec) === "worker" ? WORKERD_START_MS : 0);
      },
    );
  }
}
