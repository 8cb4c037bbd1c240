// How many render-node containers run for a given queue (worker/containers/render-node-container.ts).
import { describe, expect, it } from "vitest";
import { nodesForQueue, scalingRule } from "../../worker/containers/render-node-container.ts";

describe("container scaling with queue depth", () => {
  it("one instance per job (segments count as jobs), between the minimum and the maximum", () => {
    const rule = scalingRule({ CONTAINER_MIN_INSTANCES: "1", CONTAINER_MAX_INSTANCES: "8" });
    expect([0, 1, 3, 8, 30].map((depth) => nodesForQueue(depth, rule))).toEqual([1, 1, 3, 8, 8]);
  });

  it("jobs per instance divide the depth, rounding up; defaults 0 to 8, one job each", () => {
    expect(nodesForQueue(5, scalingRule({ CONTAINER_JOBS_PER_INSTANCE: "2" }))).toBe(3);
    expect(scalingRule({})).toEqual({ min: 0, max: 8, jobsPerInstance: 1 });
    expect(nodesForQueue(0, scalingRule({}))).toBe(0);
  });

  it("CONTAINER_POOL_SIZE still sets the maximum; nonsense falls back to the defaults; the minimum never passes the maximum", () => {
    expect(scalingRule({ CONTAINER_POOL_SIZE: "2" }).max).toBe(2);
    expect(scalingRule({ CONTAINER_MAX_INSTANCES: "lots", CONTAINER_JOBS_PER_INSTANCE: "-3" })).toEqual({ min: 0, max: 8, jobsPerInstance: 1 });
    expect(scalingRule({ CONTAINER_MIN_INSTANCES: "5", CONTAINER_MAX_INSTANCES: "3" }).min).toBe(3);
  });
});
