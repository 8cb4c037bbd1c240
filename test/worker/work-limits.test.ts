// Per-user caps on work that occupies render nodes (renders, snapshots, checks, previews: 429 with Retry-After,
// nothing queued) and the wall-clock limit that ends every render (running time: waiting in the queue never fails one), each shown with the attack it stops. The node
// is played over the real protocol. Tests run with MAX_RENDER_MS=6000 (vitest.config.ts) and the default caps.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { api, createProject, json, signIn } from "./helpers.ts";
import { awaitJob, claimKind, nodeCall, registerNode, sseReader } from "./node-helpers.ts";

type State = Record<string, unknown> & { id: string; status: string; startedAt: number; doneAt: number | null; lines?: string[] };

async function rows(sqlText: string, ...params: unknown[]): Promise<number> {
  return (await env.DB.prepare(sqlText).bind(...params).first<{ n: number }>())?.n ?? 0;
}

async function expectCapped(res: Response, pattern: RegExp, limit: number, retryAfter: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get("Retry-After")).toBe(String(retryAfter));
  const body = await json<{ error: string; limit: number; retryAfter: number }>(res);
  expect(body.error).toMatch(pattern);
  expect(body).toMatchObject({ limit, retryAfter });
}

let key = "";
beforeEach(async () => {
  key = await registerNode();
  await claimKind(key, "check"); // the node has asked for work: browser endpoints count it as available
});

describe("renders in progress: at most 3 per user across projects", () => {
  it("the 4th render is a 429 that queues nothing; the same project's POST still returns its running render; a finished render frees a slot", async () => {
    const s = await signIn("cap-renders");
    for (const name of ["Cap A", "Cap B", "Cap C", "Cap D"]) await createProject(s.token, name);
    const started: State[] = [];
    for (const slug of ["cap-a", "cap-b", "cap-c"]) {
      const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" });
      expect(res.status).toBe(202);
      started.push(await json<State>(res));
    }
    await expectCapped(await api(s.token, "POST", "/api/projects/cap-d/render", {}), /too many renders in progress .*at most 3 per user/, 3, 30);
    // Nothing of the refused render exists anywhere.
    expect(await json(await api(s.token, "GET", "/api/projects/cap-d/render"))).toEqual({ status: "none", recent: [] });
    expect(await rows("SELECT count(*) AS n FROM renders WHERE user_id = ?", s.userId)).toBe(3);
    expect(await rows("SELECT count(*) AS n FROM jobs WHERE user_id = ?", s.userId)).toBe(3);
    // One render per project is the reference's own rule: the running render, never a 429.
    const again = await api(s.token, "POST", "/api/projects/cap-a/render", {});
    expect(again.status).toBe(200);
    expect((await json<State>(again)).id).toBe(started[0]!.id);

    // A node finishes the first: the slot is free.
    const job = await claimKind(key, "render");
    expect(job?.id).toBe(started[0]!.id);
    await nodeCall(key, "PUT", `/jobs/${job!.id}/output`, new Uint8Array(10));
    await nodeCall(key, "POST", `/jobs/${job!.id}/complete`, { ok: true });
    const fourth = await api(s.token, "POST", "/api/projects/cap-d/render", {});
    expect(fourth.status).toBe(202);
    for (const slug of ["cap-b", "cap-c", "cap-d"]) await api(s.token, "DELETE", `/api/projects/${slug}/render`);
  });

  it("a burst of parallel POSTs on 6 projects starts exactly 3", async () => {
    const s = await signIn("cap-burst");
    const slugs = ["one", "two", "three", "four", "five", "six"].map((n) => `burst-${n}`);
    for (const slug of slugs) await createProject(s.token, slug);
    const results = await Promise.all(slugs.map((slug) => api(s.token, "POST", `/api/projects/${slug}/render`, {})));
    expect(results.map((r) => r.status).sort()).toEqual([202, 202, 202, 429, 429, 429]);
    expect(await rows("SELECT count(*) AS n FROM renders WHERE user_id = ? AND status IN ('queued', 'rendering')", s.userId)).toBe(3);
    expect(await rows("SELECT count(*) AS n FROM jobs WHERE user_id = ?", s.userId)).toBe(3);
    // A refused project's room was put back: it shows no render.
    for (const [i, res] of results.entries()) {
      const state = await json<State>(await api(s.token, "GET", `/api/projects/${slugs[i]}/render`));
      expect(state.status).toBe(res.status === 202 ? "queued" : "none");
    }
    // Another user is not affected.
    const other = await signIn("cap-burst-other");
    await createProject(other.token, "Mine");
    expect((await api(other.token, "POST", "/api/projects/mine/render", {})).status).toBe(202);
    for (const slug of slugs) await api(s.token, "DELETE", `/api/projects/${slug}/render`);
    await api(other.token, "DELETE", "/api/projects/mine/render");
  });
});

describe("browser work: snapshots and checks 2 each in flight, previews 3 running", () => {
  it("a 3rd snapshot is a 429 that neither queues a job nor clears snapshots/", async () => {
    const s = await signIn("cap-snapshots");
    for (const name of ["Snap A", "Snap B", "Snap C"]) await createProject(s.token, name);
    await api(s.token, "PUT", "/api/projects/snap-c/files/snapshots/keep.txt", "keep me");
    const first = api(s.token, "POST", "/api/projects/snap-a/snapshot", { frames: 1 });
    const a = await awaitJob(key, "snapshot");
    const second = api(s.token, "POST", "/api/projects/snap-b/snapshot", { frames: 1 });
    const b = await awaitJob(key, "snapshot");
    await expectCapped(await api(s.token, "POST", "/api/projects/snap-c/snapshot", { frames: 1 }), /too many snapshots in flight: at most 2 per user/, 2, 10);
    expect(await (await api(s.token, "GET", "/api/projects/snap-c/files/snapshots/keep.txt")).text()).toBe("keep me");
    expect(await rows("SELECT count(*) AS n FROM jobs WHERE user_id = ? AND kind = 'snapshot'", s.userId)).toBe(2);
    for (const job of [a, b]) await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { snapshots: [], log: [] } });
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    // Both ended: a snapshot may run again.
    const third = api(s.token, "POST", "/api/projects/snap-c/snapshot", { frames: 1 });
    const c = await awaitJob(key, "snapshot");
    await nodeCall(key, "POST", `/jobs/${c.id}/complete`, { ok: true, result: { snapshots: [], log: [] } });
    expect((await third).status).toBe(200);
  });

  it("a 3rd check in flight is a 429 that queues nothing", async () => {
    const s = await signIn("cap-checks");
    for (const name of ["Check A", "Check B", "Check C"]) await createProject(s.token, name);
    const pending = [api(s.token, "POST", "/api/projects/check-a/check", {})];
    const a = await awaitJob(key, "check");
    pending.push(api(s.token, "POST", "/api/projects/check-b/check", {}));
    const b = await awaitJob(key, "check");
    await expectCapped(await api(s.token, "POST", "/api/projects/check-c/check", {}), /too many checks in flight: at most 2 per user/, 2, 10);
    expect(await rows("SELECT count(*) AS n FROM jobs WHERE user_id = ? AND kind = 'check'", s.userId)).toBe(2);
    for (const job of [a, b]) await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { runtime: [], layout: [], times: [] } });
    for (const res of await Promise.all(pending)) expect(res.status).toBe(200);
  });

  it("a 4th preview is a 429 that says how to free one; an existing preview is still returned; stopping one frees a slot", async () => {
    const s = await signIn("cap-previews");
    const slugs = ["view-a", "view-b", "view-c", "view-d"];
    for (const slug of slugs) await createProject(s.token, slug);
    const start = async (slug: string, port: number) => {
      const pending = api(s.token, "POST", `/api/projects/${slug}/preview`);
      const job = await awaitJob(key, "preview");
      await nodeCall(key, "POST", `/jobs/${job.id}/preview`, { port });
      const res = await pending;
      expect(res.status).toBe(200);
      return json<{ running: boolean; port: number }>(res);
    };
    for (const [i, slug] of slugs.slice(0, 3).entries()) expect(await start(slug, 3010 + i)).toMatchObject({ running: true });
    await expectCapped(await api(s.token, "POST", "/api/projects/view-d/preview"), /too many previews running: at most 3 per user; stop one with DELETE/, 3, 60);
    expect(await claimKind(key, "preview")).toBeNull();
    // A project's own running preview is returned, cap or not.
    expect(await json(await api(s.token, "POST", "/api/projects/view-a/preview"))).toMatchObject({ running: true, port: 3010 });
    expect(await json(await api(s.token, "DELETE", "/api/projects/view-a/preview"))).toEqual({ stopped: true });
    expect(await start("view-d", 3013)).toMatchObject({ running: true, port: 3013 });
    for (const slug of slugs) await api(s.token, "DELETE", `/api/projects/${slug}/preview`);
  });
});

describe("wall-clock limit", () => {
  it("every render ends within MAX_RENDER_MS of running time: a rendering one fails with a line naming the limit and the node is told to stop", async () => {
    const s = await signIn("wall-clock");
    await createProject(s.token, "Endless");
    const rendering = await json<State>(await api(s.token, "POST", "/api/projects/endless/render", {}));
    const job = await claimKind(key, "render");
    expect(job?.id).toBe(rendering.id);
    const claimedAt = Date.now();

    // The node keeps posting progress (its lease never lapses); only the wall clock can end this render.
    let told: { cancelled: boolean } = { cancelled: false };
    const deadline = Date.now() + 15_000;
    while (!told.cancelled && Date.now() < deadline) {
      told = await json<{ cancelled: boolean }>(await nodeCall(key, "POST", `/jobs/${rendering.id}/progress`, { lines: ["frame 1/100000"] }));
      if (!told.cancelled) await new Promise((r) => setTimeout(r, 250));
    }
    expect(told).toEqual({ cancelled: true });
    const state = await endedState(s.token, "endless", deadline);
    expect(state.status).toBe("failed");
    expect(state.lastLine).toBe("render failed: render exceeded the wall-clock limit of 6 s");
    expect(state.error).toBe("render exceeded the wall-clock limit of 6 s");
    const took = state.doneAt! - claimedAt;
    expect(took).toBeGreaterThanOrEqual(5500);
    expect(took).toBeLessThan(12_000);
    const row = await env.DB.prepare("SELECT status, error FROM jobs WHERE id = ?").bind(rendering.id).first<{ status: string; error: string }>();
    expect(row).toEqual({ status: "failed", error: "render exceeded the wall-clock limit of 6 s" });
    // The node's late completion changes nothing.
    await nodeCall(key, "POST", `/jobs/${rendering.id}/complete`, { ok: true });
    expect((await json<State>(await api(s.token, "GET", "/api/projects/endless/render"))).status).toBe("failed");
    expect(await rows("SELECT count(*) AS n FROM renders WHERE user_id = ? AND status IN ('queued', 'rendering')", s.userId)).toBe(0);
  }, 30_000);

  it("waiting in the queue never fails a render: past MAX_RENDER_MS unclaimed it shows its place (GET, by id, event stream); once claimed it is bounded", async () => {
    const s = await signIn("long-queue");
    await createProject(s.token, "Waits");
    const queued = await json<State>(await api(s.token, "POST", "/api/projects/waits/render", {}));
    const events = await api(s.token, "GET", "/api/projects/waits/render/events");
    const reader = sseReader(events);
    // No node claims it for longer than the 6 s limit.
    await new Promise((r) => setTimeout(r, 8000));
    const waiting = await json<State & { queue?: { position: number; etaSeconds: number | null } }>(await api(s.token, "GET", "/api/projects/waits/render"));
    expect(waiting.status).toBe("queued");
    expect(waiting.queue?.position).toBeGreaterThanOrEqual(1);
    expect(waiting.lines).toContainEqual(expect.stringMatching(/^queued: position \d+/));
    const byId = await json<State & { queue?: { position: number } }>(await api(s.token, "GET", `/api/renders/${queued.id}`));
    expect(byId).toMatchObject({ status: "queued", queue: { position: waiting.queue!.position } });
    let placeEvent = await reader.next();
    while (!(placeEvent.event === "line" && /^queued: position/.test(String(placeEvent.data.line)))) placeEvent = await reader.next();
    expect(placeEvent.data).toMatchObject({ status: "queued", queue: { position: expect.any(Number) } });
    await reader.cancel();

    // Claimed now, it runs for at most MAX_RENDER_MS from the claim, not from the POST.
    const job = await claimKind(key, "render");
    expect(job?.id).toBe(queued.id);
    const claimedAt = Date.now();
    const running = await json<State>(await api(s.token, "GET", "/api/projects/waits/render"));
    expect(running.status).toBe("rendering");
    expect(running).not.toHaveProperty("queue");
    const deadline = Date.now() + 15_000;
    let told: { cancelled: boolean } = { cancelled: false };
    while (!told.cancelled && Date.now() < deadline) {
      told = await json<{ cancelled: boolean }>(await nodeCall(key, "POST", `/jobs/${queued.id}/progress`, { lines: ["frame 1/100000"] }));
      if (!told.cancelled) await new Promise((r) => setTimeout(r, 250));
    }
    const state = await endedState(s.token, "waits", deadline);
    expect(state.error).toBe("render exceeded the wall-clock limit of 6 s");
    expect(state.doneAt! - claimedAt).toBeGreaterThanOrEqual(5500);
    expect(state.doneAt! - queued.startedAt).toBeGreaterThanOrEqual(13_000);
  }, 45_000);
});

/** The project's render once it ended (polled until `deadline`). */
async function endedState(token: string, slug: string, deadline: number): Promise<State> {
  let state = await json<State>(await api(token, "GET", `/api/projects/${slug}/render`));
  while (state.status !== "failed" && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    state = await json<State>(await api(token, "GET", `/api/projects/${slug}/render`));
  }
  return state;
}
