// Split renders on the Worker side, nodes played over the real protocol: the plan posted by the planning node, the
// split decided with idle nodes parked on the JobBoard, segments on three nodes, a lost segment retried, the join,
// cancel reaching every segment holder, the plan's poster moment handed to the join, and the MAX_VIDEO_SECONDS limit
// on a plan.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ClaimResponseSchema } from "../../core/protocol/node-routes.ts";
import { api, json } from "./helpers.ts";
import { claim, nodeCall, parkIdleNodes, registerNode } from "./node-helpers.ts";
import { finishWithFile, lapse, renderState, startRender } from "./render-farm-helpers.ts";

describe("split renders (segments across nodes)", () => {
  const plan = (frames: number) => ({
    composition: "index.html", frames, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: frames / 30,
    width: 1920, height: 1080, audio: [], findings: [],
  });
  const claimKindOf = async (key: string, kind: string) => {
    const res = await nodeCall(key, "POST", "/jobs/claim?wait=0", { kinds: [kind], nodeId: "p" });
    return res.status === 204 ? null : ClaimResponseSchema.parse(await res.json()).job;
  };

  it("a plan posted before the room heard of its claim keeps the render whole on the planning node, never a split into nothing", async () => {
    const a = await registerNode("seg-early");
    const { state } = await startRender("farm-early-plan", "early-plan");
    // The job runs on node a in D1 while the room still has the render queued, as when the claim's word to the room
    // is late: the plan must not answer "no segments", which a node reads as a split and stops on.
    const node = await env.DB.prepare("SELECT id FROM render_nodes WHERE name = ?").bind("seg-early").first<{ id: string }>();
    await env.DB.prepare("UPDATE jobs SET status = 'running', node_id = ?, attempts = 1, lease_expires_at = ? WHERE id = ?")
      .bind(node!.id, Date.now() + 60_000, state.id).run();
    const planned = await json<{ segments: unknown[]; cancelled: boolean }>(await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan: plan(300) }));
    expect(planned).toEqual({ cancelled: false, segments: [{ index: 0, fromFrame: 0, toFrame: 300 }] });
  });

  it("a short render stays whole; a long one is split, its segments go to three nodes, a lost segment is retried, the join ends it done", async () => {
    const [a, b, c] = [await registerNode("seg-a"), await registerNode("seg-b"), await registerNode("seg-c")];
    const { s, state, room } = await startRender("farm-split", "split");
    while ((await claim(a))?.id !== state.id); // earlier tests' queued renders (storage is shared within this file)

    // Planned with nodes b and c waiting for work: 1200 frames at 30 fps (40 s, about 80 s whole) in 3 segments.
    const parked = await parkIdleNodes(b, ["p"]);
    parked.push(...(await parkIdleNodes(c, ["p"])));
    const planned = await json<{ segments: { index: number; fromFrame: number; toFrame: number }[]; cancelled: boolean }>(
      await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan: plan(1200) }),
    );
    expect(planned).toEqual({
      cancelled: false,
      segments: [0, 1, 2].map((i) => ({ index: i, fromFrame: i * 400, toFrame: (i + 1) * 400 })),
    });
    expect((await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan: { ...plan(10), frames: -1 } })).status).toBe(400);

    const claimed = [...(await Promise.all(parked)), await claimKindOf(a, "segment")];
    // Which waiting node got which segment is a race; the planning node takes the one left.
    const holderOf = new Map(claimed.map((j, i) => [j!.options.index as number, [b, c, a][i]!]));
    const jobs = [0, 1, 2].map((i) => claimed.find((j) => j?.options.index === i));
    expect(jobs[1]?.options).toMatchObject({ renderId: state.id, fromFrame: 400, toFrame: 800, plan: plan(1200) });
    const holders = [0, 1, 2].map((i) => holderOf.get(i)!);
    const nameOf = (key: string) => (key === a ? "seg-a/p" : key === b ? "seg-b/p" : "seg-c/p");
    expect(new Set(holders)).toEqual(new Set([a, b, c]));

    // Progress is summed over segments: 150 + 100 of 1200 frames.
    await nodeCall(holders[0]!, "POST", `/jobs/${jobs[0]!.id}/progress`, { lines: ["frame 150/400"], progress: { frame: 150, total: 400, fps: 10, stage: "capturing", etaSeconds: 25 } });
    await nodeCall(holders[1]!, "POST", `/jobs/${jobs[1]!.id}/progress`, { lines: [], progress: { frame: 100, total: 400, fps: 10, stage: "capturing", etaSeconds: 30 } });
    const mid = await renderState(s.token, "split");
    expect(mid).toMatchObject({ status: "rendering", progress: { frame: 250, total: 1200, fps: 20 } });
    expect(mid.lines).toContain("segment 0: frame 150/400");
    expect(mid.segments).toEqual([0, 1, 2].map((i) => ({ index: i, fromFrame: i * 400, toFrame: (i + 1) * 400, node: nameOf(holders[i]!), attempts: 1, status: "rendering" })));

    // The holder of segment 2 dies: its segment goes back to the queue and segment 0's holder takes it over.
    const [lost, taker] = [holders[2]!, holders[0]!];
    await lapse(jobs[2]!.id);
    await env.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id != ? AND status = 'running'").bind(Date.now() + 60_000, jobs[2]!.id).run();
    await runDurableObjectAlarm(room);
    expect((await renderState(s.token, "split")).lines).toContain(
      `segment 2: node ${nameOf(lost)} stopped renewing its lease (no progress for 30 s; attempt 1 of 3); queued again for another node`,
    );
    expect(await json(await nodeCall(lost, "POST", `/jobs/${jobs[2]!.id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
    const retried = await claimKindOf(taker, "segment");
    expect(retried).toMatchObject({ id: jobs[2]!.id, attempt: 2 });
    holders[2] = taker;

    for (const [i, job] of jobs.entries()) {
      const bytes = new Uint8Array(10 + i).fill(i);
      expect((await nodeCall(holders[i]!, "PUT", `/jobs/${job!.id}/output`, bytes)).status).toBe(200);
      expect(await json(await nodeCall(holders[i]!, "POST", `/jobs/${job!.id}/complete`, { ok: true }))).toEqual({ ok: true });
    }
    const join = await claimKindOf(lost, "join");
    expect(join?.options).toMatchObject({ renderId: state.id, segments: [0, 1, 2] });
    const seg2 = await nodeCall(lost, "GET", `/jobs/${join!.id}/segments/2`);
    expect(new Uint8Array(await seg2.arrayBuffer())).toEqual(new Uint8Array(12).fill(2));
    expect((await nodeCall(lost, "GET", `/jobs/${join!.id}/segments/9`)).status).toBe(404);
    expect((await nodeCall(taker, "GET", `/jobs/${join!.id}/segments/0`)).status).toBe(404); // not the join's holder
    await finishWithFile(lost, join!.id, new Uint8Array(99));
    const done = await renderState(s.token, "split");
    expect(done).toMatchObject({ status: "done", size: 99, downloadUrl: `/renders/${state.filename}`, progress: { frame: 1200, total: 1200, percent: 100 } });
    expect(done.segments).toEqual([0, 1, 2].map((i) => ({ index: i, fromFrame: i * 400, toFrame: (i + 1) * 400, node: nameOf(holders[i]!), attempts: i === 2 ? 2 : 1, status: "done" })));
    // The segment files are gone; every job of the render ended; no alarm stays armed.
    expect((await env.FILES.list({ prefix: `seg/${s.userId}/` })).objects).toEqual([]);
    const live = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE id LIKE ? AND status IN ('queued', 'running')").bind(`${state.id}%`).first<{ n: number }>();
    expect(live?.n).toBe(0);
    expect(await runDurableObjectAlarm(room)).toBe(false);
  });

  it("cancel reaches every node that holds a segment at its next post; a short render is one segment rendered whole", async () => {
    const [a, b] = [await registerNode("cx-a"), await registerNode("cx-b")];
    const { s, state } = await startRender("farm-split-cancel", "split-cancel");
    while ((await claim(a))?.id !== state.id);
    // Two nodes wait (two processes on key b): 3 segments, two taken at once, the third still queued.
    const parked = await parkIdleNodes(b, ["p", "q"]);
    expect((await json<{ segments: unknown[] }>(await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan: plan(900) }))).segments).toHaveLength(3);
    const [j0, j1] = await Promise.all(parked);
    expect(await json(await api(s.token, "DELETE", "/api/projects/split-cancel/render"))).toEqual({ stopped: true });
    for (const job of [j0, j1]) {
      expect(await json(await nodeCall(b, "POST", `/jobs/${job!.id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
    }
    expect(await claimKindOf(a, "segment")).toBeNull(); // the third segment is withdrawn too
    expect((await renderState(s.token, "split-cancel")).segments?.map((p: { status: string }) => p.status)).toEqual(["cancelled", "cancelled", "cancelled"]);

    const short = await startRender("farm-short", "short");
    while ((await claim(a))?.id !== short.state.id);
    expect(await json(await nodeCall(a, "POST", `/jobs/${short.state.id}/plan`, { plan: plan(600) }))).toEqual({ cancelled: false, segments: [{ index: 0, fromFrame: 0, toFrame: 600 }] });
    await finishWithFile(a, short.state.id);
    expect(await renderState(short.s.token, "short")).toMatchObject({ status: "done", segments: null });
  });

  it("the poster's moment the planning node settled reaches the join in its plan, so the join makes the same poster", async () => {
    const [a, b] = [await registerNode("poster-a"), await registerNode("poster-b")];
    const { state } = await startRender("farm-split-poster", "split-poster");
    while ((await claim(a))?.id !== state.id);
    const parked = await parkIdleNodes(b, ["p", "q"]);
    const poster = { frame: 45, seconds: 1.5, why: 'data-poster-time="1.5"' };
    expect((await json<{ segments: unknown[] }>(await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan: { ...plan(900), poster } }))).segments).toHaveLength(3);
    const segments = [...(await Promise.all(parked)).map((job) => ({ job, key: b })), { job: await claimKindOf(a, "segment"), key: a }];
    for (const { job, key } of segments) await finishWithFile(key, job!.id, new Uint8Array(8));
    const join = await claimKindOf(a, "join");
    expect(join?.options).toMatchObject({ renderId: state.id, plan: { ...plan(900), poster } });
  });

  it("a plan longer than MAX_VIDEO_SECONDS fails the render with the limit named and queues no segment; an hour is allowed", async () => {
    const key = await registerNode("long-node");
    const { s, state } = await startRender("farm-too-long", "too-long");
    while ((await claim(key))?.id !== state.id);
    // 3600.1 s of video at 30 fps: one frame too many for the default limit of an hour.
    expect(await json(await nodeCall(key, "POST", `/jobs/${state.id}/plan`, { plan: plan(3600 * 30 + 3) }))).toEqual({ segments: [], cancelled: true });
    const failed = await renderState(s.token, "too-long");
    expect(failed).toMatchObject({ status: "failed", segments: null });
    expect(failed.lines?.at(-1)).toBe(
      "render failed: the video would be 3600.1 s long (108003 frames at 30 fps); one render makes at most 3600 s of video (MAX_VIDEO_SECONDS)",
    );
    const queued = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE id LIKE ? AND status IN ('queued', 'running')").bind(`${state.id}%`).first<{ n: number }>();
    expect(queued?.n).toBe(0);

    const hour = await startRender("farm-hour", "hour");
    while ((await claim(key))?.id !== hour.state.id);
    const planned = await json<{ segments: unknown[] }>(await nodeCall(key, "POST", `/jobs/${hour.state.id}/plan`, { plan: plan(3600 * 30) }));
    expect(planned.segments).toHaveLength(1); // one node: kept whole (split-plan.test.ts caps a split at MAX_SEGMENTS)
    expect(await json(await api(hour.s.token, "DELETE", "/api/projects/hour/render"))).toEqual({ stopped: true });
  });

  it("fair across users: another user's short render goes before the rest of one user's segments", async () => {
    const key = await registerNode("fair-node");
    const others = await registerNode("fair-others");
    const long = await startRender("farm-fair-long", "fair-long");
    while ((await claim(key))?.id !== long.state.id);
    const parked = await parkIdleNodes(others, ["p", "q"]);
    await nodeCall(key, "POST", `/jobs/${long.state.id}/plan`, { plan: plan(3000) }); // 3 segments of 1000 frames
    const taken = (await Promise.all(parked)).map((j) => j?.options.index as number);
    const short = await startRender("farm-fair-short", "fair-short");
    // The node claims render work (render, segment, join): the other user's render comes before the last segment.
    const next = await nodeCall(key, "POST", "/jobs/claim?wait=0", { kinds: ["render", "segment", "join"] });
    expect(ClaimResponseSchema.parse(await next.json()).job.id).toBe(short.state.id);
    expect([...taken, (await claimKindOf(key, "segment"))?.options.index].sort()).toEqual([0, 1, 2]);
  });
});
