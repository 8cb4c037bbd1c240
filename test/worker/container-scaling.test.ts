// How many render-node containers run for a given queue (worker/renders/farm/render-node-container.ts), with the
// scaling settings read as the Worker reads them (worker/config/).
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Env } from "../../worker/env.ts";
import { parseConfig } from "../../worker/config/parse-config.ts";
import { EMPTY_QUEUE, idleVerdict, nodesForQueue, queueDepth, restartVerdict, scalingRule, wakeRenderNodes, type QueueDepth } from "../../worker/renders/farm/render-node-container.ts";
import { signIn } from "./helpers.ts";

const renders = (render: number): QueueDepth => ({ ...EMPTY_QUEUE, render });
const configWith = (vars: Record<string, string>) => parseConfig({ ...env, ...vars });
const ruleOf = (vars: Record<string, string>) => scalingRule(configWith(vars));

describe("container scaling with queue depth", () => {
  it("one instance per piece of render work (segments count), between the minimum and the maximum", () => {
    const rule = ruleOf({ CONTAINER_MIN_INSTANCES: "1", CONTAINER_MAX_INSTANCES: "8" });
    expect([0, 1, 3, 8, 30].map((depth) => nodesForQueue(renders(depth), rule))).toEqual([1, 1, 3, 8, 8]);
  });

  it("jobs per instance divide the depth, rounding up; defaults 0 to 8, one job each", () => {
    expect(nodesForQueue(renders(5), ruleOf({ CONTAINER_JOBS_PER_INSTANCE: "2" }))).toBe(3);
    expect(ruleOf({})).toEqual({ min: 0, max: 8, jobsPerInstance: 1 });
    expect(nodesForQueue(EMPTY_QUEUE, ruleOf({}))).toBe(0);
  });

  it("a snapshot or check runs beside a node's render: the larger of the two kinds of work counts, not their sum", () => {
    const rule = ruleOf({});
    expect(nodesForQueue({ render: 2, browser: 2, preview: 0 }, rule)).toBe(2);
    expect(nodesForQueue({ render: 1, browser: 3, preview: 0 }, rule)).toBe(3);
    expect(nodesForQueue({ render: 0, browser: 1, preview: 0 }, rule)).toBe(1);
  });

  it("previews run in a node's background: any number needs one instance, and no more beside other work", () => {
    const rule = ruleOf({});
    expect(nodesForQueue({ render: 0, browser: 0, preview: 5 }, rule)).toBe(1);
    expect(nodesForQueue({ render: 2, browser: 0, preview: 5 }, rule)).toBe(2);
  });

  it("CONTAINER_POOL_SIZE still sets the maximum; nonsense and a minimum past the maximum are errors naming the setting", () => {
    expect(ruleOf({ CONTAINER_POOL_SIZE: "2" }).max).toBe(2);
    expect(ruleOf({ CONTAINER_POOL_SIZE: "2", CONTAINER_MAX_INSTANCES: "5" }).max).toBe(5);
    expect(() => ruleOf({ CONTAINER_MAX_INSTANCES: "lots" })).toThrow('CONTAINER_MAX_INSTANCES: expected a whole number from 1 to 64, got "lots"');
    expect(() => ruleOf({ CONTAINER_POOL_SIZE: "0" })).toThrow('CONTAINER_POOL_SIZE: expected a whole number from 1 to 64, got "0"');
    expect(() => ruleOf({ CONTAINER_JOBS_PER_INSTANCE: "-3" })).toThrow('CONTAINER_JOBS_PER_INSTANCE: expected a whole number from 1 to 64, got "-3"');
    expect(() => ruleOf({ CONTAINER_MIN_INSTANCES: "5", CONTAINER_MAX_INSTANCES: "3" })).toThrow("CONTAINER_MIN_INSTANCES: 5 is more than CONTAINER_MAX_INSTANCES (3)");
  });

  it("the node in a container renders with 2 browsers (the instance type's vCPUs) unless CONTAINER_NODE_CONCURRENCY says otherwise", () => {
    expect(configWith({}).CONTAINER_NODE_CONCURRENCY).toBe(2);
    expect(configWith({ CONTAINER_NODE_CONCURRENCY: "1" }).CONTAINER_NODE_CONCURRENCY).toBe(1);
    expect(() => configWith({ CONTAINER_NODE_CONCURRENCY: "two" })).toThrow(/CONTAINER_NODE_CONCURRENCY: expected a whole number of browsers from 1 to 16, got "two"/);
    expect(() => configWith({ CONTAINER_NODE_CONCURRENCY: "0" })).toThrow(/CONTAINER_NODE_CONCURRENCY/);
  });

  it("CONTAINER_SLEEP_AFTER is a duration as Cloudflare writes sleepAfter (default 5m); anything else names the setting", () => {
    expect(configWith({}).CONTAINER_SLEEP_AFTER).toEqual({ text: "5m", seconds: 300 });
    expect(configWith({ CONTAINER_SLEEP_AFTER: "15s" }).CONTAINER_SLEEP_AFTER).toEqual({ text: "15s", seconds: 15 });
    expect(configWith({ CONTAINER_SLEEP_AFTER: "1h" }).CONTAINER_SLEEP_AFTER.seconds).toBe(3600);
    for (const bad of ["15", "1.5m", "0s", "5 min"]) {
      expect(() => configWith({ CONTAINER_SLEEP_AFTER: bad })).toThrow(`CONTAINER_SLEEP_AFTER: expected a duration such as "15s", "5m" or "1h"`);
    }
  });

  it("CONTAINER_CLAIM_IN_FLIGHT_MS, how long after a claim no idle instance stops, is 15 s unless set (e2e-containers sets it short)", () => {
    expect(configWith({}).CONTAINER_CLAIM_IN_FLIGHT_MS).toBe(15_000);
    expect(configWith({ CONTAINER_CLAIM_IN_FLIGHT_MS: "2000" }).CONTAINER_CLAIM_IN_FLIGHT_MS).toBe(2000);
    expect(() => configWith({ CONTAINER_CLAIM_IN_FLIGHT_MS: "0" })).toThrow(/CONTAINER_CLAIM_IN_FLIGHT_MS: expected a positive integer number of milliseconds/);
  });

  it("an instance past its sleepAfter stops only with no work held or queued and when not one of the minimum", () => {
    const idle = { jobsHeld: 0, queued: 0, index: 2, min: 1 };
    expect(idleVerdict(idle)).toEqual({ keep: false, why: "no work held or queued, and not one of the CONTAINER_MIN_INSTANCES" });
    expect(idleVerdict({ ...idle, jobsHeld: 1 }).keep).toBe(true);
    expect(idleVerdict({ ...idle, queued: 3 }).keep).toBe(true);
    expect(idleVerdict({ ...idle, index: 0 })).toEqual({ keep: true, why: "one of the CONTAINER_MIN_INSTANCES (1) kept running" });
    // A node that does not answer may be mid-start or busy: kept, never stopped blind.
    expect(idleVerdict({ ...idle, jobsHeld: null }).keep).toBe(true);
  });

  it("an instance lost otherwise than by its idle stop (exit 0 included) is started again while work remains, and always when one of the minimum", () => {
    const lost = { stop: "lost" as const, busy: false };
    expect(restartVerdict({ ...lost, index: 0, min: 1 })).toEqual({ restart: true, why: "one of the CONTAINER_MIN_INSTANCES (1) kept running" });
    expect(restartVerdict({ ...lost, busy: true, index: 2, min: 1 })).toEqual({ restart: true, why: "work is queued or running" });
    expect(restartVerdict({ ...lost, index: 2, min: 1 })).toEqual({ restart: false, why: "no work queued or running, and not one of the CONTAINER_MIN_INSTANCES" });
    expect(restartVerdict({ ...lost, index: null, min: 1 }).restart).toBe(false);
  });

  it("an instance that stopped idle is started again only for work queued since, not for another instance's render", () => {
    const idle = { stop: "idle" as const, queued: 0 };
    // Another instance still renders (the queue is busy, nothing unclaimed): stays stopped.
    expect(restartVerdict({ ...idle, index: 2, min: 1 })).toEqual({ restart: false, why: "stopped idle, nothing queued since, and not one of the CONTAINER_MIN_INSTANCES" });
    expect(restartVerdict({ ...idle, queued: 2, index: 2, min: 1 })).toEqual({ restart: true, why: "2 job(s) queued since it stopped idle" });
    expect(restartVerdict({ ...idle, index: 0, min: 1 }).restart).toBe(true);
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

  it("a container that fails to start is an error in the log naming the instance, not taken for one already running", async () => {
    // Cloudflare's container binding is the external boundary here: a stand-in whose second instance cannot start.
    const started: string[] = [];
    const binding = {
      idFromName: (name: string) => name,
      get: (name: string) => ({
        start: async () => {
          if (name === "render-node-1") throw new Error("no capacity in this location");
          started.push(name);
        },
      }),
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await wakeRenderNodes({ ...env, RENDER_NODE_CONTAINER: binding, CONTAINER_NODE_KEY: "stn_test_key_for_containers" } as unknown as Env, renders(3));
      expect(started.sort()).toEqual(["render-node-0", "render-node-2"]);
      const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
      expect(lines).toContainEqual(expect.objectContaining({ level: "error", event: "containers.start_failed", instance: "render-node-1", error: expect.objectContaining({ message: "no capacity in this location" }) }));
    } finally {
      errors.mockRestore();
    }
  });
});
