// The Worker side of snapshot, check and preview: validation, ownership (and /play's), node availability (503),
// timeouts that name the stage (504), and a node played over HTTP through each job.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { awaitJob, claimKind, nodeCall, registerNode } from "./node-helpers.ts";
import { SELF } from "cloudflare:test";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let key = "";
beforeEach(async () => {
  key = await registerNode();
  await claimKind(key, "check"); // the node has asked for work: it counts as available
});

describe("validation", () => {
  it("answers 400 naming the field for bad at, frames and samples", async () => {
    const s = await signIn("browser-validate");
    await createProject(s.token, "Valid", { duration: 4 });
    const cases: Array<[string, unknown, string]> = [
      ["snapshot", { at: [-1] }, "at.0"],
      ["snapshot", { at: ["1"] }, "at.0"],
      ["snapshot", { at: [] }, "at"],
      ["snapshot", { at: 2 }, "at"],
      ["snapshot", { at: [1, 9] }, "at.1"],
      ["snapshot", { frames: 0 }, "frames"],
      ["snapshot", { frames: 2.5 }, "frames"],
      ["snapshot", { frames: "5" }, "frames"],
      ["snapshot", { end: "no" }, "end"],
      ["snapshot", { framez: 3 }, "framez"],
      ["check", { samples: 0 }, "samples"],
      ["check", { samples: 1.5 }, "samples"],
      ["check", { samples: 1000 }, "samples"],
      ["check", { at: [null] }, "at.0"],
      ["check", { at: [5] }, "at.0"],
      ["check", { strict: "yes" }, "strict"],
    ];
    for (const [endpoint, body, field] of cases) {
      const res = await api(s.token, "POST", `/api/projects/valid/${endpoint}`, body);
      const error = (await json<{ error: string }>(res)).error;
      expect(res.status, `${endpoint} ${JSON.stringify(body)}: ${error}`).toBe(400);
      expect(error, JSON.stringify(body)).toContain(field);
    }
    expect(await api(s.token, "POST", "/api/projects/valid/snapshot", "{nope")).toHaveProperty("status", 400);
  });

  it("answers 404 for another user's project, on every browser endpoint", async () => {
    const owner = await signIn("browser-owner");
    await createProject(owner.token, "Mine");
    const other = await signIn("browser-other");
    for (const [method, path] of [["POST", "snapshot"], ["POST", "check"], ["POST", "preview"], ["GET", "preview"], ["DELETE", "preview"]] as const) {
      const res = await api(other.token, method, `/api/projects/mine/${path}`, method === "POST" ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await json(res)).toEqual({ error: "no project named mine", code: "not_found" });
    }
    const play = await SELF.fetch(`${BASE}/play/mine`, { headers: { Cookie: other.cookie } });
    expect(play.status).toBe(404);
  });

  it("answers 503 when no render node has asked for work lately", async () => {
    await env.DB.prepare("UPDATE render_nodes SET last_seen_at = NULL").run();
    const s = await signIn("browser-nonode");
    await createProject(s.token, "Lonely");
    for (const path of ["snapshot", "check", "preview"]) {
      const res = await api(s.token, "POST", `/api/projects/lonely/${path}`, {});
      expect(res.status, path).toBe(503);
      expect((await json<{ error: string }>(res)).error).toMatch(/^no render node is available/);
    }
    // Nothing was queued for a node that is not there.
    const queued = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE slug = 'lonely'").first<{ n: number }>();
    expect(queued?.n).toBe(0);
  });
});

describe("snapshot through a node", () => {
  it("clears snapshots/, lets the node write only there, and answers with sizes and fetchable urls", async () => {
    const s = await signIn("browser-snap");
    await createProject(s.token, "Snap");
    await api(s.token, "PUT", "/api/projects/snap/files/snapshots/old.png", "stale");
    const pending = api(s.token, "POST", "/api/projects/snap/snapshot", { at: [1, 2], end: false });
    const job = await awaitJob(key, "snapshot");
    expect(job).toMatchObject({ kind: "snapshot", slug: "snap", options: { at: [1, 2], end: false } });
    const listing = await json<{ files: { path: string; mtime: string }[] }>(await nodeCall(key, "GET", `/jobs/${job.id}/files`));
    expect(listing.files.map((f) => f.path)).not.toContain("snapshots/old.png");
    expect(listing.files[0]?.mtime).toEqual(expect.any(String));
    const outside = await nodeCall(key, "PUT", `/jobs/${job.id}/files/index.html`, PNG, { "Content-Type": "image/png" });
    expect(outside.status).toBe(403);
    // URL parsing folds %2e%2e into "..", so this arrives as index.html and is refused like any path outside.
    const sneaky = await nodeCall(key, "PUT", `/jobs/${job.id}/files/snapshots/%2e%2e/index.html`, PNG);
    expect([400, 403]).toContain(sneaky.status);
    expect((await api(s.token, "GET", "/api/projects/snap/files/index.html")).status).toBe(200);
    for (const path of ["snapshots/frame-01-1.000s.png", "snapshots/contact-sheet.png"]) {
      const up = await nodeCall(key, "PUT", `/jobs/${job.id}/files/${path}`, PNG, { "Content-Type": "image/png" });
      expect(await json(up)).toEqual({ ok: true, path, size: PNG.length });
    }
    await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: ["capturing frame 1/2"], stage: "capturing frame 1/2" });
    await nodeCall(key, "POST", `/jobs/${job.id}/complete`, {
      ok: true,
      result: { snapshots: [{ path: "snapshots/frame-01-1.000s.png" }, { path: "snapshots/contact-sheet.png" }], log: ["loaded", "captured"] },
    });
    const res = await pending;
    expect(res.status).toBe(200);
    const body = await json<{ ok: boolean; snapshots: { path: string; size: number; url: string }[]; log: string[] }>(res);
    expect(body).toEqual({
      ok: true,
      snapshots: [
        { path: "snapshots/frame-01-1.000s.png", size: PNG.length, url: `${BASE}/api/projects/snap/files/snapshots/frame-01-1.000s.png` },
        { path: "snapshots/contact-sheet.png", size: PNG.length, url: `${BASE}/api/projects/snap/files/snapshots/contact-sheet.png` },
      ],
      log: ["loaded", "captured"],
    });
    const file = await api(s.token, "GET", body.snapshots[0]!.url.slice(BASE.length));
    expect(file.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    // The job is over: no more writes.
    expect((await nodeCall(key, "PUT", `/jobs/${job.id}/files/snapshots/late.png`, PNG)).status).toBe(409);
  });

  it("a failed snapshot is a 422 with the node's error and log", async () => {
    const s = await signIn("browser-snapfail");
    await createProject(s.token, "Snapfail");
    const pending = api(s.token, "POST", "/api/projects/snapfail/snapshot", {});
    const job = await awaitJob(key, "snapshot");
    await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: false, error: "composition has no root", result: { snapshots: [], log: ["loading"] } });
    const res = await pending;
    expect(res.status).toBe(422);
    expect(await json(res)).toEqual({ error: "snapshot failed: composition has no root", code: "unprocessable", ok: false, snapshots: [], log: ["loading"] });
  });

  it("times out with 504 naming the stage that hung: queued, or the node's last stage", async () => {
    const s = await signIn("browser-hang");
    await createProject(s.token, "Hang");
    const queued = await api(s.token, "POST", "/api/projects/hang/snapshot", {});
    expect(queued.status).toBe(504);
    expect((await json<{ error: string }>(queued)).error).toBe("no render node picked the snapshot up within 2 s (stage: queued)");
    const pending = api(s.token, "POST", "/api/projects/hang/snapshot", {});
    const job = await awaitJob(key, "snapshot");
    await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [], stage: "capturing frame 3/6 at 2.4 s" });
    const res = await pending;
    expect(res.status).toBe(504);
    expect((await json<{ error: string }>(res)).error).toBe("the snapshot timed out after 4 s (stage: capturing frame 3/6 at 2.4 s)");
    // The node learns on its next post that the job is over.
    expect(await json(await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
  }, 20_000);
});

describe("a browser job whose node dies", () => {
  it("goes back to the queue for another node before its last attempt: the snapshot answers 200, not 504", async () => {
    const s = await signIn("browser-node-died");
    await createProject(s.token, "Died");
    const other = await registerNode("other");
    const pending = api(s.token, "POST", "/api/projects/died/snapshot", {});
    const job = await awaitJob(key, "snapshot");
    expect(job.attempt).toBe(1);
    // The node dies mid-snapshot: its lease lapses.
    await env.DB.prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ?").bind(Date.now() - 1, job.id).run();
    const again = await awaitJob(other, "snapshot");
    expect(again).toMatchObject({ id: job.id, attempt: 2 });
    expect((await nodeCall(other, "PUT", `/jobs/${job.id}/files/snapshots/contact-sheet.png`, PNG, { "Content-Type": "image/png" })).status).toBe(200);
    await nodeCall(other, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { snapshots: [{ path: "snapshots/contact-sheet.png" }], log: ["captured"] } });
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ ok: true, snapshots: [{ path: "snapshots/contact-sheet.png", size: PNG.length }] });
  }, 20_000);
});

describe("check through a node", () => {
  it("lints in the Worker, merges the node's runtime and layout sections, and strict fails on warnings", async () => {
    const s = await signIn("browser-check");
    await createProject(s.token, "Checked");
    const layoutWarning = { code: "off-canvas", severity: "warning", message: "#x is partly outside", file: "index.html", selector: "#x", time: 1, box: { x: 1900, y: 0, width: 100, height: 50 } };
    const run = async (body: unknown) => {
      const pending = api(s.token, "POST", "/api/projects/checked/check", body);
      const job = await awaitJob(key, "check");
      await nodeCall(key, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { runtime: [], layout: [layoutWarning], times: [1, 3, 5] } });
      return json<{ ok: boolean; exitCode: number; result: Record<string, { ok: boolean; errorCount: number; warningCount: number; findings: unknown[] }> & { strict: boolean } }>(await pending);
    };
    const relaxed = await run({ samples: 3 });
    expect(relaxed.ok).toBe(true);
    expect(relaxed.exitCode).toBe(0);
    expect(relaxed.result.lint).toMatchObject({ ok: true, errorCount: 0 });
    expect(relaxed.result.runtime).toMatchObject({ ok: true, errorCount: 0, warningCount: 0, findings: [] });
    expect(relaxed.result.layout).toMatchObject({ ok: true, warningCount: 1, findings: [layoutWarning], times: [1, 3, 5] });
    const strict = await run({ samples: 3, strict: true });
    expect(strict).toMatchObject({ ok: false, exitCode: 1, result: { strict: true, layout: { ok: false } } });
  });
});

describe("preview through a node", () => {
  it("starts with a secret only the owner's URL carries, on the content host, shows in the summary, and stops on DELETE and project deletion", async () => {
    const s = await signIn("browser-preview");
    await createProject(s.token, "Shown");
    expect(await json(await api(s.token, "GET", "/api/projects/shown/preview"))).toEqual({ running: false });
    const pending = api(s.token, "POST", "/api/projects/shown/preview");
    const job = await awaitJob(key, "preview");
    // The node learns the secret from the job it claims: 32 random bytes, base64url.
    const secret = job.options.secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await json(await nodeCall(key, "POST", `/jobs/${job.id}/preview`, { port: 3004 }))).toEqual({ cancelled: false });
    const started = await pending;
    // The host is CONTENT_URL's, not the API host the caller used.
    const state = { running: true, port: 3004, url: `http://content.studio.test:3004/${secret}/` };
    expect(await json(started)).toEqual(state);
    // A request addressed to another host name (a forged Host header) does not put that name in the link.
    const forged = await SELF.fetch("http://evil.example/api/projects/shown/preview", { headers: { Authorization: `Bearer ${s.token}` } });
    expect(await json(forged)).toEqual(state);
    expect(await json(await api(s.token, "POST", "/api/projects/shown/preview"))).toEqual(state);
    expect(await json(await api(s.token, "GET", "/api/projects/shown/preview"))).toEqual(state);
    const list = await json<{ projects: { name: string; preview: unknown }[] }>(await api(s.token, "GET", "/api/projects"));
    expect(list.projects.find((p) => p.name === "shown")?.preview).toEqual(state);
    const detail = await json<{ project: { preview: unknown } }>(await api(s.token, "GET", "/api/projects/shown"));
    expect(detail.project.preview).toEqual(state);
    expect(await json(await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [] }))).toEqual({ cancelled: false });

    expect(await json(await api(s.token, "DELETE", "/api/projects/shown/preview"))).toEqual({ stopped: true });
    expect(await json(await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
    expect(await json(await api(s.token, "GET", "/api/projects/shown/preview"))).toEqual({ running: false });
    expect(await json(await api(s.token, "DELETE", "/api/projects/shown/preview"))).toEqual({ stopped: false });

    const again = api(s.token, "POST", "/api/projects/shown/preview");
    const job2 = await awaitJob(key, "preview");
    await nodeCall(key, "POST", `/jobs/${job2.id}/preview`, { port: 3005 });
    // Every preview draws its own secret.
    expect(job2.options.secret).not.toBe(secret);
    expect(await json(await again)).toEqual({ running: true, port: 3005, url: `http://content.studio.test:3005/${job2.options.secret as string}/` });
    expect((await api(s.token, "DELETE", "/api/projects/shown")).status).toBe(200);
    expect(await json(await nodeCall(key, "POST", `/jobs/${job2.id}/progress`, { lines: [] }))).toEqual({ cancelled: true });
  });
});

// /play/<slug> now redirects to a capability link on the content origin, where the page and its scripts are
// served: test/worker/content-origin.test.ts covers it.
