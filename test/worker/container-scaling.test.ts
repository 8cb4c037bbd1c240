// How many render-node containers run for a given queue (worker/containers/render-node-container.ts).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EMPTY_QUEUE, nodeConcurrency, nodesForQueue, queueDepth, scalingRule, type QueueDepth } from "../../worker/containers/render-node-container.ts";
import { signIn } from "./helpers.ts";

const renders = (render: number): QueueDepth => ({ ...EMPTY_QUEUE, render });

describe("container scaling with queue depth", () => {
  it("one instance per piece of render work (segments count), between the minimum and the maximum", () => {
    const rule = scalingRule({ CONTAINER_MIN_INSTANCES: "1", CONTAINER_MAX_INSTANCES: "8" });
    expect([0, 1, 3, 8, 30].map((depth) => nodesForQueue(renders(depth), rule))).toEqual([1, 1, 3, 8, 8]);
  });

  it("jobs per instance divide the depth, rounding up; defaults 0 to 8, one job each", () => {
    expect(nodesForQueue(renders(5), scalingRule({ CONTAINER_JOBS_PER_INSTANCE: "2" }))).toBe(3);
    expect(scalingRule({})).toEqual({ min: 0, max: 8, jobsPerInstance: 1 });
    expect(nodesForQueue(EMPTY_QUEUE, scalingRule({}))).toBe(0);
  });

  it("a snapshot or check runs beside a node's render: the larger of the two kinds of work counts, not their sum", () => {
    const rule = scalingRule({});
    expect(nodesForQueue({ render: 2, browser: 2, preview: 0 }, rule)).toBe(2);
    expect(nodesForQueue({ render: 1, browser: 3, preview: 0 }, rule)).toBe(3);
    expect(nodesForQueue({ render: 0, browser: 1, preview: 0 }, rule)).toBe(1);
  });

  it("previews run in a node's background: any number needs one instance, and no more beside other work", () => {
    const rule = scalingRule({});
    expect(nodesForQueue({ render: 0, browser: 0, preview: 5 }, rule)).toBe(1);
    expect(nodesForQueue({ render: 2, browser: 0, preview: 5 }, rule)).toBe(2);
  });

  it("CONTAINER_POOL_SIZE still sets the maximum; nonsense falls back to the defaults; the minimum never passes the maximum", () => {
    expect(scalingRule({ CONTAINER_POOL_SIZE: "2" }).max).toBe(2);
    expect(scalingRule({ CONTAINER_MAX_INSTANCES: "lots", CONTAINER_JOBS_PER_INSTANCE: "-3" })).toEqual({ min: 0, max: 8, jobsPerInstance: 1 });
    expect(scalingRule({ CONTAINER_MIN_INSTANCES: "5", CONTAINER_MAX_INSTANCES: "3" }).min).toBe(3);
  });

  it("the node in a container renders with 2 browsers (the instance type's vCPUs) unless CONTAINER_NODE_CONCURRENCY says otherwise", () => {
    expect(nodeConcurrency({})).toBe("2");
    expect(nodeConcurrency({ CONTAINER_NODE_CONCURRENCY: "1" })).toBe("1");
    expect(nodeConcurrency({ CONTAINER_NODE_CONCURRENCY: "two" })).toBe("2");
    expect(nodeConcurrency({ CONTAINER_NODE_CONCURRENCY: "0" })).toBe("1");
  });

  it("counts the queue in D1 by the loop that takes each kind; ended jobs do not count", async () => {
    const { userId } = await signIn("scaling");
    const before = await queueDepth(env);
    const add = (kind: string, status: string) =>
      env.DB.prepare("INSERT INTO jobs (id, user_id, slug, kind, status, options, created_at) VALUES (?, ?, 'scale', ?, ?, '{}', ?)")
        .bind(crypto.randomUUID(), userId, kind, status, Date.now())
        .run();
    for (const kind of ["render", "segment", "segment", "join", "snapshot", "check", "preview"]) await add(kind, "queued");
    await add("segment", "running");
    await add("render", "done");
    await add("snapshot", "failed");
    const after = await queueDepth(env);
    expect({ render: after.render - before.render, browser: after.browser - before.browser, preview: after.preview - before.preview }).toEqual({ render: 5, browser: 2, preview: 1 });
  });
});
