// The farm uses what it has (issue 24, item 5), with nodes played over the real protocol against the real Worker:
// a render is split when the nodes free now finish it sooner (idle nodes are claims parked on the JobBoard, as a
// real node waits between jobs), kept whole when none is; and a user with many queued renders cannot starve another
// when one node serves one render at a time. Its own file: the queue's order depends on every queued job, so no
// other test's leftovers may share its D1.
import { describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, idleOnBoard, nodeCall, parkIdleNodes, registerNode } from "./node-helpers.ts";

type State = { id: string; status: string; lines?: string[]; segments?: { index: number; node: string | null; status: string }[] | null };

const plan = (frames: number) => ({
  composition: "index.html", frames, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: frames / 30,
  width: 1920, height: 1080, audio: [], findings: [],
});

async function finishWithFile(key: string, id: string, bytes = new Uint8Array(64)) {
  expect((await nodeCall(key, "PUT", `/jobs/${id}/output`, bytes)).status).toBe(200);
  expect(await json(await nodeCall(key, "POST", `/jobs/${id}/complete`, { ok: true }))).toEqual({ ok: true });
}

async function queueRender(token: string, name: string): Promise<string> {
  await createProject(token, name);
  const res = await api(token, "POST", `/api/projects/${name.toLowerCase().replace(/ /g, "-")}/render`, { quality: "draft" });
  expect(res.status, await res.clone().text()).toBe(202);
  return (await json<State>(res)).id;
}

describe("fair across users with one node", () => {
  it("user A queues three renders, then user B one: the node, rendering one at a time, takes B's second, not fourth", { timeout: 20_000 }, async () => {
    const node = await registerNode("only-node");
    const a = await signIn("fair-a");
    const b = await signIn("fair-b");
    const ids = [await queueRender(a.token, "A one"), await queueRender(a.token, "A two"), await queueRender(a.token, "A three")];
    const bId = await queueRender(b.token, "B one");
    // Each render is claimed only after the one before has ended: nothing runs at any claim, so "fewest running"
    // ties at zero for both users every time; the user a node served least recently goes first.
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      const job = await claim(node);
      expect(job, `claim ${i + 1}`).not.toBeNull();
      order.push(job!.id);
      await finishWithFile(node, job!.id);
    }
    expect(order).toEqual([ids[0], bId, ids[1], ids[2]]);
    expect(await claim(node)).toBeNull();
  });
});

describe("splitting with the nodes free", () => {
  it("three idle nodes: a 20 s 1080p render is split in three, one segment each; with none idle the next stays whole", { timeout: 20_000 }, async () => {
    const planner = await registerNode("planner");
    const others = await registerNode("others");
    const s = await signIn("split-free");
    const id = await queueRender(s.token, "Twenty");
    expect((await claim(planner))?.id).toBe(id);

    // Two more nodes wait for work (parked claims); the planning node is the third.
    const parked = await parkIdleNodes(others, ["n2", "n3"]);
    expect(await idleOnBoard("segment")).toBe(2);
    const planned = await json<{ segments: unknown[]; cancelled: boolean }>(await nodeCall(planner, "POST", `/jobs/${id}/plan`, { plan: plan(600) }));
    expect(planned).toEqual({
      cancelled: false,
      segments: [{ index: 0, fromFrame: 0, toFrame: 200 }, { index: 1, fromFrame: 200, toFrame: 400 }, { index: 2, fromFrame: 400, toFrame: 600 }],
    });
    // The waiting nodes are woken by the segments and take one each; the planning node takes the last.
    const taken = await Promise.all(parked);
    const mine = await nodeCall(planner, "POST", "/jobs/claim?wait=0", { kinds: ["segment"], nodeId: "n1" });
    const jobs = [...taken, (await json<{ job: NonNullable<(typeof taken)[number]> }>(mine)).job];
    expect(jobs.map((j) => j?.kind)).toEqual(["segment", "segment", "segment"]);
    expect(jobs.map((j) => j!.options.index).sort()).toEqual([0, 1, 2]);
    const state = await json<State>(await api(s.token, "GET", "/api/projects/twenty/render"));
    expect(state.lines).toContain(
      "render split into 3 segments of about 200 frames (600 frames at 30 fps) for 3 free nodes (this one and 2 waiting for work): about 18 s instead of 40 s whole",
    );
    expect(new Set(state.segments!.map((g) => g.node))).toEqual(new Set(["others/n2", "others/n3", "planner/n1"]));
    expect(await json(await api(s.token, "DELETE", "/api/projects/twenty/render"))).toEqual({ stopped: true });

    // The same render with no node waiting: one node, so a split could only add its overhead and the join.
    const again = await queueRender(s.token, "Twenty again");
    expect((await claim(planner))?.id).toBe(again);
    expect(await idleOnBoard("segment")).toBe(0);
    const whole = await json(await nodeCall(planner, "POST", `/jobs/${again}/plan`, { plan: plan(600) }));
    expect(whole).toEqual({ cancelled: false, segments: [{ index: 0, fromFrame: 0, toFrame: 600 }] });
    await finishWithFile(planner, again);
    const done = await json<State>(await api(s.token, "GET", "/api/projects/twenty-again/render"));
    expect(done).toMatchObject({ status: "done", segments: null });
    expect(done.lines).toContain("kept whole on this node: 1 free node (this one; no other waiting for work); about 40 s whole");
  });

  it("a 2 s render stays whole however many nodes wait: its segments would be shorter than their own overhead", { timeout: 20_000 }, async () => {
    const planner = await registerNode("short-planner");
    const others = await registerNode("short-others");
    const s = await signIn("split-short");
    const id = await queueRender(s.token, "Two seconds");
    expect((await claim(planner))?.id).toBe(id);
    const parked = await parkIdleNodes(others, ["m2", "m3", "m4"], 1);
    const planned = await json(await nodeCall(planner, "POST", `/jobs/${id}/plan`, { plan: plan(60) }));
    expect(planned).toEqual({ cancelled: false, segments: [{ index: 0, fromFrame: 0, toFrame: 60 }] });
    expect(await Promise.all(parked)).toEqual([null, null, null]); // nothing was queued for them
    const state = await json<State>(await api(s.token, "GET", "/api/projects/two-seconds/render"));
    expect(state.lines).toContain("kept whole on this node: 4 free nodes (this one and 3 waiting for work); about 4.0 s whole, no split finishes sooner (too short)");
    await finishWithFile(planner, id);
  });
});
