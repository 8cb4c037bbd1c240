// How many render-node containers run for a given queue (worker/containers/render-node-container.ts), with the
// scaling settings read as the Worker reads them (worker/config/).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../worker/config/parse-config.ts";
import { nodesForQueue, scalingRule } from "../../worker/containers/render-node-container.ts";

const ruleOf = (vars: Record<string, string>) => scalingRule(parseConfig({ ...env, ...vars }));

describe("container scaling with queue depth", () => {
  it("one instance per job (segments count as jobs), between the minimum and the maximum", () => {
    const rule = ruleOf({ CONTAINER_MIN_INSTANCES: "1", CONTAINER_MAX_INSTANCES: "8" });
    expect([0, 1, 3, 8, 30].map((depth) => nodesForQueue(depth, rule))).toEqual([1, 1, 3, 8, 8]);
  });

  it("jobs per instance divide the depth, rounding up; defaults 0 to 8, one job each", () => {
    expect(nodesForQueue(5, ruleOf({ CONTAINER_JOBS_PER_INSTANCE: "2" }))).toBe(3);
    expect(ruleOf({})).toEqual({ min: 0, max: 8, jobsPerInstance: 1 });
    expect(nodesForQueue(0, ruleOf({}))).toBe(0);
  });

  it("CONTAINER_POOL_SIZE still sets the maximum; nonsense and a minimum past the maximum are errors naming the setting", () => {
    expect(ruleOf({ CONTAINER_POOL_SIZE: "2" }).max).toBe(2);
    expect(ruleOf({ CONTAINER_POOL_SIZE: "2", CONTAINER_MAX_INSTANCES: "5" }).max).toBe(5);
    expect(() => ruleOf({ CONTAINER_MAX_INSTANCES: "lots" })).toThrow('CONTAINER_MAX_INSTANCES: expected a whole number from 1 to 64, got "lots"');
    expect(() => ruleOf({ CONTAINER_POOL_SIZE: "0" })).toThrow('CONTAINER_POOL_SIZE: expected a whole number from 1 to 64, got "0"');
    expect(() => ruleOf({ CONTAINER_JOBS_PER_INSTANCE: "-3" })).toThrow('CONTAINER_JOBS_PER_INSTANCE: expected a whole number from 1 to 64, got "-3"');
    expect(() => ruleOf({ CONTAINER_MIN_INSTANCES: "5", CONTAINER_MAX_INSTANCES: "3" })).toThrow("CONTAINER_MIN_INSTANCES: 5 is more than CONTAINER_MAX_INSTANCES (3)");
  });
});
