// The render farm's Worker side with nodes played over the real protocol: the ProjectRoom as the one owner of a
// render (retries after a lost lease, completion that breaks halfway, the alarm after the job ended), claims as a
// long poll answered by the JobBoard, two nodes claiming at once, fair order across users, and waits that survive
// the room's eviction. Leases are lapsed by writing lease_expires_at, then the room's alarm is run. Split renders:
// render-segments.test.ts.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ClaimAnswerSchema, JOB_ATTEMPT_HEADER } from "../../core/protocol/node-routes.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, idleOnBoard, nodeCall, registerNode, sseReader } from "./node-helpers.ts";
import { finishWithFile, jobRow, lapse, listed, renderState, roomStub, startRender, type State } from "./render-farm-helpers.ts";

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

describe("processes sharing one node key (container instances)", () => {
  // Every container instance presents CONTAINER_NODE_KEY: one node to the key. An instance whose lease lapsed (the
  // Worker restarted, say) is told to stop when its job went back to the queue, and fails its render "render
  // cancelled"; meanwhile another instance claimed the job again under the same key. Each names the attempt it
  // claimed (x-job-attempt), so the late one is a stranger to the job and its failure does not end the render.
  it("the instance that lost its lease cannot end the render another instance of the same key took over", async () => {
    const key = await registerNode("local");
    while (await claim(key)); // earlier tests' queued renders (storage is shared within this file)
    const { s, state, room } = await startRender("farm-shared-key", "shared-key");
    const first = { [JOB_ATTEMPT_HEADER]: "1" };
    const second = { [JOB_ATTEMPT_HEADER]: "2" };
    expect((await claim(key))?.attempt).toBe(1);
    await lapse(state.id);
    await runDurableObjectAlarm(room);
    expect((await claim(key))?.attempt).toBe(2);

    // The first instance's late report: the failure its cancel caused. Refused; the render goes on.
    const late = await nodeCall(key, "POST", `/jobs/${state.id}/complete`, { ok: false, error: "render cancelled" }, first);
    expect(await renderState(s.token, "shared-key")).toMatchObject({ status: "rendering", error: null });
    expect(late.status).toBe(404);
    expect(await json(await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["late"] }, first))).toEqual({ cancelled: true });
    expect((await nodeCall(key, "PUT", `/jobs/${state.id}/output`, new Uint8Array(8), first)).status).toBe(404);
    expect(await json(await nodeCall(key, "POST", `/jobs/${state.id}/progress`, { lines: ["frame 1/30"] }, second))).toEqual({ cancelled: false });

    expect(await json(await finishWithFile(key, state.id, new Uint8Array(64), second))).toEqual({ ok: true });
    expect(await renderState(s.token, "shared-key")).toMatchObject({ status: "done", size: 64 });
    expect((await renderState(s.token, "shared-key")).lines).not.toContain("late");
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
  it("a waiting claim is told to claim again as soon as work is queued, not at its timeout, and the claim again takes it", async () => {
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
    expect(ClaimAnswerSchema.parse(await res.json())).toEqual({ job: null, claimAgain: true });
    expect((await claim(key))?.id).toBe(state.id);
    expect(Date.now() - queuedAt).toBeLessThan(2000);
    expect(Date.now() - began).toBeLessThan(5000);
  });

  it("a node gone while its claim waited takes no job: the render queued next is taken at once by a live node, not after a lease", async () => {
    const gone = await registerNode("gone-while-waiting");
    const live = await registerNode("live-node");
    const s = await signIn("farm-gone");
    await createProject(s.token, "After Gone");
    // The gone node's claim is parked on the board; its node never reads the answer (killed: workerd is not told).
    const before = await idleOnBoard("render");
    const waiting = nodeCall(gone, "POST", "/jobs/claim?wait=20", { kinds: ["render"], nodeId: "killed" });
    for (let i = 0; (await idleOnBoard("render")) <= before; i++) {
      if (i > 200) throw new Error("the claim never parked on the board");
      await new Promise((r) => setTimeout(r, 20));
    }
    const state = await json<State>(await api(s.token, "POST", "/api/projects/after-gone/render", {}));
    // The live node claims a moment later and takes it: attempt 1, no lease to sit out.
    const taken = await claim(live);
    expect(taken).toMatchObject({ id: state.id, attempt: 1 });
    expect(await jobRow(state.id)).toMatchObject({ status: "running", attempts: 1 });
    expect((await renderState(s.token, "after-gone")).lines).toContain("render node live-node started the render");
    expect((await waiting).status).toBe(200); // told to claim again, holding nothing
    await api(s.token, "DELETE", "/api/projects/after-gone/render");
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

describe("renders stored by the previous code", () => {
  it("a rendering render stored in the shape before phases (no phase, optional fields) goes on: its node's completion takes it to done", async () => {
    const key = await registerNode();
    const s = await signIn("farm-legacy");
    await createProject(s.token, "Legacy");
    while (await claim(key)); // earlier tests' queued renders (storage is shared within this file)
    const state = await json<State>(await api(s.token, "POST", "/api/projects/legacy/render", { quality: "draft" }));
    expect((await claim(key))?.id).toBe(state.id);
    // What the previous code kept for this render once its node took it: one record, told apart by status alone.
    await runInDurableObject(roomStub(s.userId, "legacy"), async (_instance, ctx) => {
      const stored = (await ctx.storage.get<Record<string, unknown>>("render"))!;
      const legacy = {
        id: stored.id, userId: stored.userId, slug: stored.slug, status: "rendering", startedAt: stored.startedAt, doneAt: null,
        filename: stored.filename, options: stored.options, lastLine: stored.lastLine, progress: null, error: null, size: null,
        node: stored.node, attempt: 1,
      };
      await ctx.storage.put("render", legacy);
    });
    expect(await renderState(s.token, "legacy")).toMatchObject({ status: "rendering", doneAt: null, error: null, size: null });
    expect(await json(await finishWithFile(key, state.id))).toEqual({ ok: true });
    const done = await renderState(s.token, "legacy");
    expect(done).toMatchObject({ status: "done", size: 64, downloadUrl: `/renders/${state.filename}` });
    expect(await listed(s.token)).toContain(state.filename);
  });
});
