// A credential ends everywhere at once, open event streams included. Each kind of stream (the project's stream,
// with its file, render and batch events; the render's stream; an MCP render tool waiting with progress
// notifications) is opened with each kind of credential that can open it (a personal token in a header or ?token=,
// the dashboard's session cookie, an OAuth grant through /mcp); the credential is rotated, signed out or revoked;
// then a file is written, a render or batch started, or a render line posted with a credential that is still valid.
// The old credential's streams end within a few seconds and deliver none of it, while another credential's stream
// gets it. A notification that never reached the room is caught by its backstop (a D1 check every few seconds).
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import { STREAM_RECHECK_MS } from "../../worker/renders/room/stream-watch.ts";
import { api, BASE, createProject, json, signIn, type Session } from "./helpers.ts";
import { issueBot } from "./idea-helpers.ts";
import { awaitJob, claim, nodeCall, registerNode } from "./node-helpers.ts";
import { roomStub } from "./render-farm-helpers.ts";
import { watchStream, type WatchedStream } from "./stream-helpers.ts";

// Room for streams that wrongly stay open to be waited on (and named) before a test times out.
vi.setConfig({ testTimeout: 20_000 });

/** Claims render jobs until this one (a job another test left queued is claimed and left alone). */
async function claimRender(key: string, id: string): Promise<void> {
  for (let i = 0; i < 20; i++) if ((await claim(key))?.id === id) return;
  throw new Error(`render ${id} was never claimed`);
}

/** How soon a told room must have ended a stream. */
const ENDS_WITHIN_MS = 3000;

/** GET with the session cookie, as the dashboard's EventSource sends it. */
const withCookie = (s: Session, path: string) => api(null, "GET", path, undefined, { Cookie: s.cookie });

/** A write with the session cookie from the dashboard's own origin. */
const fromDashboard = (s: Session, method: string, path: string, body?: unknown) => api(null, method, path, body, { Cookie: s.cookie, Origin: BASE });

async function rotate(s: Session, by: "token" | "session"): Promise<string> {
  const res = by === "token" ? await api(s.token, "POST", "/api/me/token/rotate") : await fromDashboard(s, "POST", "/api/me/token/rotate");
  expect(res.status).toBe(200);
  return (await json<{ token: string }>(res)).token;
}

/** The old credential's streams ended, and none of `later` (written after its end) reached them. */
async function expectEndedWithout(streams: WatchedStream[], later: string[]) {
  const ended = await Promise.all(streams.map((stream) => stream.closedWithin(ENDS_WITHIN_MS)));
  // Give a late broadcast every chance to arrive before looking.
  await new Promise((resolve) => setTimeout(resolve, 300));
  // What was delivered first (on a stream that stays open, the later file or render arrives: the attack itself).
  for (const stream of streams) for (const secret of later) expect(stream.text).not.toContain(secret);
  ended.forEach((closed, i) => expect(closed, `stream ${i} still open; delivered: ${streams[i]!.text.slice(0, 300)}`).toBe(true));
}

describe("a personal token's streams end when it is rotated", () => {
  for (const by of ["token", "session"] as const) {
    it(`rotated with the ${by === "token" ? "token itself" : "dashboard session"}: its project and render streams end and get no later file or render`, async () => {
      const s = await signIn(`stream-rotate-${by}`);
      const { slug } = await createProject(s.token, `Rotate ${by}`);
      const project = watchStream(await api(s.token, "GET", `/api/projects/${slug}/events`));
      const viaQuery = watchStream(await api(null, "GET", `/api/projects/${slug}/events?token=${s.token}`));
      const render = watchStream(await api(s.token, "GET", `/api/projects/${slug}/render/events`));
      // Another credential of the same person: its stream must not be touched.
      const control = watchStream(await withCookie(s, `/api/projects/${slug}/events`));
      for (const stream of [project, viaQuery, control]) await stream.waitFor("event: render");
      await render.waitFor("event: snapshot");

      const fresh = await rotate(s, by);
      const secretFile = `after-rotation-${by}-${crypto.randomUUID()}.txt`;
      expect((await api(fresh, "PUT", `/api/projects/${slug}/files/${secretFile}`, "written after the rotation")).status).toBe(200);
      const started = await json<{ id: string }>(await api(fresh, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));

      await expectEndedWithout([project, viaQuery, render], [secretFile, started.id]);
      await control.waitFor(secretFile);
      await control.waitFor(started.id);
      expect(control.closed).toBe(false);
      // And the old token opens no new stream.
      expect((await api(s.token, "GET", `/api/projects/${slug}/events`)).status).toBe(401);
      await control.cancel();
      await api(fresh, "DELETE", `/api/projects/${slug}/render`); // no job left for another test's node to claim
    });
  }

  it("every project's streams end, not only the one in use, and the new token's streams carry on", async () => {
    const s = await signIn("stream-rotate-many");
    const slugs = [(await createProject(s.token, "Many One")).slug, (await createProject(s.token, "Many Two")).slug];
    const old = await Promise.all(slugs.map(async (slug) => watchStream(await api(s.token, "GET", `/api/projects/${slug}/events`))));
    for (const stream of old) await stream.waitFor("event: render");
    const fresh = await rotate(s, "token");
    const next = watchStream(await api(fresh, "GET", `/api/projects/${slugs[1]}/events`));
    await next.waitFor("event: render");
    const secretFile = `second-project-${crypto.randomUUID()}.txt`;
    expect((await api(fresh, "PUT", `/api/projects/${slugs[1]}/files/${secretFile}`, "x")).status).toBe(200);
    await expectEndedWithout(old, [secretFile]);
    await next.waitFor(secretFile);
    await next.cancel();
  });

  it("a batch started after the rotation reaches only the new credential's stream", async () => {
    const s = await signIn("stream-rotate-batch");
    const { slug } = await createProject(s.token, "Rotate Batch");
    const old = watchStream(await api(s.token, "GET", `/api/projects/${slug}/events`));
    const control = watchStream(await withCookie(s, `/api/projects/${slug}/events`));
    await old.waitFor("event: render");
    await control.waitFor("event: render");
    const fresh = await rotate(s, "token");
    const batch = await api(fresh, "POST", `/api/projects/${slug}/batch`, { quality: "draft", rows: [{ name: "first-row" }, { name: "second-row" }] });
    expect(batch.status).toBe(202);
    const { id } = await json<{ id: string }>(batch);
    await expectEndedWithout([old], ["event: batch", id]);
    await control.waitFor("event: batch");
    await control.waitFor(id);
    await control.cancel();
    await api(fresh, "DELETE", `/api/projects/${slug}/batch`); // no job left for another test's node to claim
  });
});

describe("a session's streams end when it signs out", () => {
  it("its project and render streams end and get no later file or render line; the token's stream carries on", async () => {
    const key = await registerNode("stream-signout-node");
    const s = await signIn("stream-signout");
    const { slug } = await createProject(s.token, "Sign Out");
    const started = await json<{ id: string }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));
    await claimRender(key, started.id);
    const project = watchStream(await withCookie(s, `/api/projects/${slug}/events`));
    const render = watchStream(await withCookie(s, `/api/projects/${slug}/render/events`));
    const control = watchStream(await api(s.token, "GET", `/api/projects/${slug}/render/events`));
    await project.waitFor("event: render");
    for (const stream of [render, control]) await stream.waitFor("event: snapshot");

    const out = await fromDashboard(s, "POST", "/auth/logout");
    expect(out.status).toBe(200);
    const secretLine = `a line written after sign-out ${crypto.randomUUID()}`;
    const secretFile = `after-sign-out-${crypto.randomUUID()}.txt`;
    expect((await nodeCall(key, "POST", `/jobs/${started.id}/progress`, { lines: [secretLine] })).status).toBe(200);
    expect((await api(s.token, "PUT", `/api/projects/${slug}/files/${secretFile}`, "x")).status).toBe(200);

    await expectEndedWithout([project, render], [secretLine, secretFile]);
    await control.waitFor(secretLine);
    expect((await withCookie(s, `/api/projects/${slug}/events`)).status).toBe(401);
    await control.cancel();
    await api(s.token, "DELETE", `/api/projects/${slug}/render`);
  });
});

describe("a held answer ends with its credential too", () => {
  it("a render POSTed with wait=1 answers 401 when the token is rotated meanwhile, without the lines written after", async () => {
    const key = await registerNode("stream-wait-node");
    const s = await signIn("stream-wait");
    const { slug } = await createProject(s.token, "Held Wait");
    const waiting = api(s.token, "POST", `/api/projects/${slug}/render?wait=1`, { quality: "draft" });
    const job = await awaitJob(key, "render");
    const fresh = await rotate(s, "session");
    const secretLine = `a line after the rotation ${crypto.randomUUID()}`;
    expect((await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [secretLine] })).status).toBe(200);
    const answered = await Promise.race([waiting, new Promise<null>((resolve) => setTimeout(() => resolve(null), ENDS_WITHIN_MS))]);
    await api(fresh, "DELETE", `/api/projects/${slug}/render`); // whatever happened, nothing waits past the test
    expect(answered, "the wait was still held after the rotation").not.toBeNull();
    const body = await answered!.text();
    expect(answered!.status, body).toBe(401);
    expect(body).not.toContain(secretLine);
  });
});

describe("a notification that never reached the room", () => {
  it("is caught by the room's backstop: a stream whose credential D1 no longer holds ends within a check", async () => {
    const s = await signIn("stream-backstop");
    const { slug } = await createProject(s.token, "Backstop");
    const bySession = watchStream(await withCookie(s, `/api/projects/${slug}/events`));
    const byToken = watchStream(await api(s.token, "GET", `/api/projects/${slug}/render/events`));
    await bySession.waitFor("event: render");
    await byToken.waitFor("event: snapshot");
    // Behind the Worker's back (a session expiring on its own, a change made by hand): no room is told.
    await env.DB.prepare("UPDATE sessions SET expires_at = 0 WHERE id_hash = ?").bind(await sha256Hex(s.cookie.split("=")[1]!)).run();
    await env.DB.prepare("UPDATE api_tokens SET token_hash = 'changed-by-hand' WHERE user_id = ?").bind(s.userId).run();
    const within = STREAM_RECHECK_MS * 2 + 1000;
    const started = Date.now();
    expect(await bySession.closedWithin(within)).toBe(true);
    expect(await byToken.closedWithin(within)).toBe(true);
    expect(Date.now() - started).toBeLessThan(within);
  });

  it("a stream request checked just before the end and arriving just after it is refused by the room", async () => {
    const s = await signIn("stream-race");
    const { slug } = await createProject(s.token, "Race");
    // The room hears of the end first (as it does before a rotation answers); the token is still valid in D1.
    await roomStub(s.userId, slug).endStreams({ kind: "token", id: await sha256Hex(s.token) });
    const res = await api(s.token, "GET", `/api/projects/${slug}/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^unauthorized: /) });
    // Another credential of the person is not refused.
    const other = watchStream(await withCookie(s, `/api/projects/${slug}/events`));
    await other.waitFor("event: render");
    await other.cancel();
  });
});

describe("credentials that cannot open a stream", () => {
  it("a bot key is 401 on every stream (it can never hold one open)", async () => {
    const s = await signIn("stream-bot");
    const { slug } = await createProject(s.token, "Bot Stream");
    const { key } = await issueBot(s.token, "streamer");
    for (const path of [`/api/projects/${slug}/events`, `/api/projects/${slug}/render/events`]) {
      expect((await api(key, "GET", path)).status).toBe(401);
    }
  });
});

describe("streams that have nothing more to say", () => {
  it("a finished render's stream sends the final state and closes", async () => {
    const key = await registerNode("stream-finished-node");
    const s = await signIn("stream-finished");
    const { slug } = await createProject(s.token, "Finished");
    const started = await json<{ id: string }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }));
    await claimRender(key, started.id);
    expect((await nodeCall(key, "PUT", `/jobs/${started.id}/output`, new Uint8Array(10), { "Content-Type": "video/mp4" })).status).toBe(200);
    expect((await nodeCall(key, "POST", `/jobs/${started.id}/complete`, { ok: true })).status).toBe(200);
    const after = watchStream(await api(s.token, "GET", `/api/projects/${slug}/render/events`));
    expect(await after.closedWithin(ENDS_WITHIN_MS)).toBe(true);
    expect(after.text).toMatch(/^id: \d+\nevent: snapshot\ndata: /);
    expect(after.text).toContain(`"id":"${started.id}"`);
    expect(after.text).toContain('"status":"done"');
  });

  it("a deleted project's streams (project and render) close", async () => {
    const s = await signIn("stream-deleted");
    const { slug } = await createProject(s.token, "Deleted");
    const project = watchStream(await api(s.token, "GET", `/api/projects/${slug}/events`));
    const render = watchStream(await api(s.token, "GET", `/api/projects/${slug}/render/events`));
    await project.waitFor("event: render");
    await render.waitFor("event: snapshot");
    expect((await api(s.token, "DELETE", `/api/projects/${slug}`)).status).toBe(200);
    expect(await project.closedWithin(ENDS_WITHIN_MS)).toBe(true);
    expect(await render.closedWithin(ENDS_WITHIN_MS)).toBe(true);
  });
});
