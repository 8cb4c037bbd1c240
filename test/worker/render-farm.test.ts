// The render farm's Worker side with nodes played over the real protocol: the ProjectRoom as the one owner of a
// render (retries after a lost lease, completion that breaks halfway, the alarm after the job ended), claims as a
// long poll answered by the JobBoard, two nodes claiming at once, fair order across users, and waits that survive
// the room's eviction. Leases are lapsed by writing lease_expires_at, then the room's alarm is run.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ClaimResponseSchema } from "../../core/protocol/node-routes.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, parkIdleNodes, registerNode, sseReader } from "./node-helpers.ts";

type State = Record<string, unknown> & { id: string; status: string; filename: string; downloadUrl: string | null; lines?: string[]; segments?: { status: string }[] | null };

const roomStub = (userId: string, slug: string) => env.PROJECT_ROOM.get(env.PROJECT_ROOM.idFromName(`${userId}/${slug}`));
const renderState = async (token: string, slug: string) => json<State>(await api(token, "GET", `/api/projects/${slug}/render`));
const jobRow = (id: string) => env.DB.prepare("SELECT status, attempts, node_id FROM jobs WHERE id = ?").bind(id).first<{ status: string; attempts: number; node_id: string | null }>();
const lapse = (id: string) => env.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?").bind(Date.now() - 1, id).run();
const listed = async (token: string) => (await json<{ renders: { filename: string }[] }>(await api(token, "GET", "/api/renders"))).renders.map((r) => r.filename);

async function startRender(name: string, slug: string) {
  const s = await signIn(name);
  await createProject(s.token, slug);
  const state = await json<State>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));
  return { s, state, room: roomStub(s.userId, slug) };
}

async function finishWithFile(key: string, id: string, bytes = new Uint8Array(64)) {
  expect((await nodeCall(key, "PUT", `/jobs/${id}/output`, bytes)).status).toBe(200);
  return nodeCall(key, "POST", `/jobs/${id}/complete`, { ok: true });
}

describe("retries after a lost lease", () => {
  it("a node that stops renewing loses the render to another node, which finishes it; the log names the node and the attempt", async () => {
    const a = await registerNode("node-a");
    const b = await registerNode("node-b");
    const { s, state, room } = await startRender("farm-retry", "retry");
    expect((await claim(a))?.attempt).toBe(1);
    await lapse(state.id);
    await runDurableObjectAlarm(room);

    const queued = await renderState(s.token, "retry");
    expect(queued.status).toBe("queued");
    expect(queued.lines).toContain("render: node node-a stopped renewing its lease (no progress for 30 s; attempt 1 of 3); queued again for another node");
    // The node that lost the job is told to stop, and may no longer complete it.
    expect(await json(await nodeCall(a, "POST", `/jobs/${state.id}/progress`, { lines: ["late"] }))).toEqual({ cancelled: true });
    expect((await nodeCall(a, "POST", `/jobs/${state.id}/complete`, { ok: true })).status).toBe(404);

    const again = await claim(b);
    expect(again).toMatchObject({ id: state.id, attempt: 2 });
    expect((await renderState(s.token, "retry")).lines).toContain("render node node-b took the render over (attempt 2 of 3)");
    expect(await json(await finishWithFile(b, state.id))).toEqual({ ok: true });
    expect(await renderState(s.token, "retry")).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}` });
    expect(await jobRow(state.id)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("after the last attempt (3) the render fails with a line naming the node; no alarm stays armed", async () => {
    const key = await registerNode("flaky");
    const { s, state, room } = await startRender("farm-giveup", "giveup");
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await claim(key))?.attempt).toBe(attempt);
      await lapse(state.id);
      await runDurableObjectAlarm(room);
    }
    const failed = await renderState(s.token, "giveup");
    expect(failed.status).toBe("failed");
    expect(failed.lines).toContain("render: node flaky stopped renewing its lease (no progress for 30 s; attempt 3 of 3)");
    expect(failed.lastLine).toBe("render failed: render node flaky stopped responding on the last attempt (3 of 3); the render was given up");
    expect(await jobRow(state.id)).toMatchObject({ status: "failed" });
    expect(await runDurableObjectAlarm(room)).toBe(false);
  });
});

describe("the room owns every transition; every alarm path ends", () => {
  it("the alarm after the job ended changes nothing and arms no new alarm", async () => {
    const key = await registerNode();
    const { s, state, room } = await startRender("farm-late-alarm", "late-alarm");
    await claim(key);
    await finishWithFile(key, state.id);
    const done = await renderState(s.token, "late-alarm");
    expect(done.status).toBe("done");
    await runInDurableObject(room, (_instance, ctx) => ctx.storage.setAlarm(Date.now()));
    expect(await runDurableObjectAlarm(room)).toBe(true);
    expect(await renderState(s.token, "late-alarm")).toEqual(done);
    expect(await runInDurableObject(room, (_instance, ctx) => ctx.storage.getAlarm())).toBeNull();
  });

  it("a job ended in the queue without the room being told ends the render at the next alarm, which then stops", async () => {
    const key = await registerNode();
    const { s, state, room } = await startRender("farm-orphan", "orphan");
    await claim(key);
    await env.DB.prepare("UPDATE jobs SET status = 'failed', error = 'ended behind the room''s back' WHERE id = ?").bind(state.id).run();
    await runDurableObjectAlarm(room);
    expect(await renderState(s.token, "orphan")).toMatchObject({ status: "failed", lastLine: "render failed: ended behind the room's back" });
    expect(await runDurableObjectAlarm(room)).toBe(false);
  });

  it("a completion that fails halfway (D1 refuses the job's end) is finished by the alarm: no download until the rows agree", async () => {
    const key = await registerNode();
    const { s, state, room } = await startRender("farm-halfway", "halfway");
    await claim(key);
    await env.DB.prepare(
      "CREATE TRIGGER refuse_job_end BEFORE UPDATE OF status ON jobs WHEN NEW.status = 'done' BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    ).run();
    try {
      // The node's part is done (its answer is ok); the room holds the decision.
      expect(await json(await finishWithFile(key, state.id))).toEqual({ ok: true });
      // The room decided (done) but its rows are not written: nothing offers the file yet.
      expect(await renderState(s.token, "halfway")).toMatchObject({ status: "done", downloadUrl: null });
      expect(await listed(s.token)).toEqual([]);
      expect(await runInDurableObject(room, (_instance, ctx) => ctx.storage.getAlarm())).not.toBeNull();
      await runDurableObjectAlarm(room); // still refused: the alarm re-arms
      expect(await runInDurableObject(room, (_instance, ctx) => ctx.storage.getAlarm())).not.toBeNull();
    } finally {
      await env.DB.prepare("DROP TRIGGER refuse_job_end").run();
    }
    await runDurableObjectAlarm(room);
    expect(await renderState(s.token, "halfway")).toMatchObject({ status: "done", downloadUrl: `/renders/${state.filename}` });
    expect(await listed(s.token)).toEqual([state.filename]);
    expect(await jobRow(state.id)).toMatchObject({ status: "done" });
    expect(await runDurableObjectAlarm(room)).toBe(false);
  });

  it("writes that keep failing are retried with back-off and given up after 20 tries: the alarm path ends", async () => {
    const key = await registerNode();
    const { s, state, room } = await startRender("farm-never", "never");
    while ((await claim(key))?.id !== state.id);
    await env.DB.prepare(
      "CREATE TRIGGER refuse_job_end_forever BEFORE UPDATE OF status ON jobs WHEN NEW.status = 'done' AND NEW.id = '" + state.id + "' BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    ).run();
    try {
      await finishWithFile(key, state.id);
      let runs = 0;
      while (await runDurableObjectAlarm(room)) runs++;
      expect(runs).toBe(20);
      expect(await runInDurableObject(room, (_instance, ctx) => ctx.storage.getAlarm())).toBeNull();
      expect(await renderState(s.token, "never")).toMatchObject({ status: "done", downloadUrl: null });
    } finally {
      await env.DB.prepare("DROP TRIGGER refuse_job_end_forever").run();
    }
  });
});

describe("claims", () => {
  it("a waiting claim is answered as soon as work is queued, not at its timeout", async () => {
    const key = await registerNode();
    const s = await signIn("farm-longpoll");
    await createProject(s.token, "Soon");
    const began = Date.now();
    const waiting = nodeCall(key, "POST", "/jobs/claim?wait=20", { kinds: ["render"] });
    await new Promise((r) => setTimeout(r, 300));
    const state = await json<State>(await api(s.token, "POST", "/api/projects/soon/render", {}));
    const queuedAt = Date.now();
    const res = await waiting;
    expect(res.status, await res.clone().text()).toBe(200);
    expect(ClaimResponseSchema.parse(await res.json()).job.id).toBe(state.id);
    expect(Date.now() - queuedAt).toBeLessThan(2000);
    expect(Date.now() - began).toBeLessThan(5000);
  });

  it("two nodes claiming at once never get the same job", async () => {
    const a = await registerNode("twin-a");
    const b = await registerNode("twin-b");
    const { state } = await startRender("farm-twins", "twins");
    const [ja, jb] = await Promise.all([claim(a), claim(b)]);
    expect([ja?.id, jb?.id].filter(Boolean)).toEqual([state.id]);
    // And with two jobs waiting, each node gets its own.
    const second = await startRender("farm-twins-2", "twins-two");
    const third = await startRender("farm-twins-3", "twins-three");
    const both = await Promise.all([claim(a), claim(b)]);
    expect(both.map((j) => j?.id).sort()).toEqual([second.state.id, third.state.id].sort());
  });

  it("fair across users: a user with work running waits behind another user's first render", async () => {
    const key = await registerNode();
    const heavy = await signIn("farm-heavy");
    const ids: string[] = [];
    for (const name of ["Heavy A", "Heavy B", "Heavy C"]) {
      await createProject(heavy.token, name);
      ids.push((await json<State>(await api(heavy.token, "POST", `/api/projects/${name.toLowerCase().replace(" ", "-")}/render`, {}))).id);
    }
    const light = await startRender("farm-light", "light");
    expect((await claim(key))?.id).toBe(ids[0]);
    expect((await claim(key))?.id).toBe(light.state.id);
    expect((await claim(key))?.id).toBe(ids[1]);
  });
});

describe("waiters survive the room's eviction", () => {
  it("a wait=1 render whose room is reset mid-wait still answers when the render ends", async () => {
    const key = await registerNode();
    const s = await signIn("farm-evict-wait");
    await createProject(s.token, "Evicted");
    while (await claim(key)); // earlier tests' queued renders (storage is shared within this file)
    const waiting = api(s.token, "POST", "/api/projects/evicted/render?wait=1", {});
    let job = null;
    for (let i = 0; i < 50 && !job; i++) job = await claim(key);
    expect(job).not.toBeNull();
    // Evict only once the POST is inside its wait (its start has finished: the render is rendering).
    for (let i = 0; i < 50 && (await renderState(s.token, "evicted")).status !== "rendering"; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    await runInDurableObject(roomStub(s.userId, "evicted"), (_instance, ctx) => {
      try {
        ctx.abort("evicted by the test");
      } catch {
        // abort throws inside the object by design
      }
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    await finishWithFile(key, job!.id);
    const res = await waiting;
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await json<State>(res)).toMatchObject({ status: "done", id: job!.id });
  });
});

describe("render events: ids, Last-Event-ID, close after end", () => {
  it("numbers every event, resumes from Last-Event-ID without loss or repeats (also after the room's eviction), and closes after end", async () => {
    const key = await registerNode();
    const s = await signIn("farm-sse");
    await createProject(s.token, "Ids");
    while (await claim(key)); // earlier tests' queued renders (storage is shared within this file)
    const stream = sseReader(await api(s.token, "GET", "/api/projects/ids/render/events"));
    const snapshot = await stream.next();
    expect(snapshot).toMatchObject({ event: "snapshot", id: 0 });
    const state = await json<State>(await api(s.token, "POST", "/api/projects/ids/render", {}));
    const start = await stream.next();
    expect(start.event).toBe("start");
    const queuedLine = await stream.next();
    expect(queuedLine.id).toBe(start.id! + 1);
    await stream.cancel();

    // While nobody listens: the node starts, the room is evicted, more lines arrive.
    expect((await claim(key))?.id).toBe(state.id);
    await runInDurableObject(roomStub(s.userId, "ids"), (_instance, ctx) => {
      try {
        ctx.abort("evicted by the test");
      } catch {
        // abort throws inside the object by design
      }
    }).catch(() => undefined);
    await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["one", "two"] });

    const resumed = sseReader(await api(s.token, "GET", "/api/projects/ids/render/events", undefined, { "Last-Event-ID": String(queuedLine.id) }));
    const missed = [await resumed.next(), await resumed.next(), await resumed.next()];
    expect(missed.map((e) => [e.event, e.data.line])).toEqual([
      ["line", "render node test-node started the render"],
      ["line", "one"],
      ["line", "two"],
    ]);
    expect(missed.map((e) => e.id)).toEqual([queuedLine.id! + 1, queuedLine.id! + 2, queuedLine.id! + 3]);
    await finishWithFile(key, state.id);
    let next = await resumed.next();
    while (next.event === "line") next = await resumed.next();
    expect(next).toMatchObject({ event: "end", data: { status: "done" } });
    expect(await resumed.closed()).toBe(true);

    // A client that resumes after the end gets the rest and a closed stream; ?lastEventId= works without the header.
    const late = sseReader(await api(s.token, "GET", `/api/projects/ids/render/events?lastEventId=${missed[2]!.id}`));
    let last = await late.next();
    while (last.event === "line") last = await late.next();
    expect(last).toMatchObject({ event: "end", id: next.id });
    expect(await late.closed()).toBe(true);
  });
});

describe("split renders (segments across nodes)", () => {
  const plan = (frames: number) => ({
    composition: "index.html", frames, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: frames / 30,
    width: 1920, height: 1080, audio: [], findings: [],
  });
  const claimKindOf = async (key: string, kind: string) => {
    const res = await nodeCall(key, "POST", "/jobs/claim?wait=0", { kinds: [kind], nodeId: "p" });
    return res.status === 204 ? null : ClaimResponseSchema.parse(await res.json()).job;
  };

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
