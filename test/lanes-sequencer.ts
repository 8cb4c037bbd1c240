// Orders the test files so the workerd files (`worker` and `worker-shared`) run beside the end-to-end files instead
// of before them (test/README.md, "How long the suite takes"). vitest.config.ts puts `node`, `node-shared`, `worker`
// and `worker-shared` in one group of two workers; vitest hands the group's files to its two workers in this order,
// each to the first that is free (and a `worker-shared` file to the Miniflare the previous one left, when it is next).
// The end-to-end files run one at a time (their lock, test/one-at-a-time.global.ts): one that a worker takes while
// another runs waits and holds that worker. So the order is the longest end-to-end file first, then every workerd
// file (the other worker runs them while that file runs, and both once it ends), then the other end-to-end files.
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { laneOrder } from "./lane-order.ts";

/** Projects whose files take the one-at-a-time lock. */
const ONE_AT_A_TIME = new Set(["node", "node-shared"]);
/** The projects whose files run beside them: the isolated workerd files, then those sharing one Miniflare. */
const BESIDE = ["worker", "worker-shared"];

/**
 * The longest end-to-end files on CI (2bf799c, in ms), to lead with when the run has no durations of its own cached
 * (a fresh clone); a cached duration wins.
 */
const LONGEST_ON_CI: Record<string, number> = {
  "test/node/e2e-containers.test.ts": 157_000,
  "test/browser/dashboard-pages.test.ts": 47_000,
  "test/node/e2e-farm.test.ts": 46_000,
};

export default class LanesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    return laneOrder(
      sorted,
      (spec) => (ONE_AT_A_TIME.has(spec.project.name) ? "lock" : BESIDE.includes(spec.project.name) ? "beside" : "other"),
      (spec) => {
        const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
        return cached ?? LONGEST_ON_CI[spec.moduleId.slice(root.length + 1)] ?? 0;
      },
    );
  }
}
