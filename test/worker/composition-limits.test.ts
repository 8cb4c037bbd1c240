// A composition over the studio's limits (core/composition/size-limits.ts) is refused by render, snapshot, check
// and preview before anything is queued, with a 400 naming the attribute, its value and the maximum; 4K in both
// orientations still goes through. The node is played over the real protocol.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { awaitJob, claimKind, nodeCall, registerNode } from "./node-helpers.ts";

/** The starter composition with another canvas and length (its CSS keeps 1920x1080; only the root matters here). */
function composition(width: string, height: string, extra = "", duration = 4): string {
  return starterComposition({ compositionId: "big", title: "Big", duration }).replace(
    'data-width="1920" data-height="1080"',
    `data-width="${width}" data-height="${height}"${extra}`,
  );
}

async function count(table: "jobs" | "renders", userId: string): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>())?.n ?? 0;
}

async function projectWith(name: string, files: Record<string, string>) {
  const s = await signIn(name);
  const { slug } = await createProject(s.token, name);
  for (const [path, text] of Object.entries(files)) {
    expect((await api(s.token, "PUT", `/api/projects/${slug}/files/${path}`, text)).status).toBe(200);
  }
  return { s, slug };
}

async function expectRefused(res: Response, message: string) {
  expect(res.status).toBe(400);
  expect(await json(res)).toEqual({ error: message, code: "bad_request" });
}

let key = "";
beforeEach(async () => {
  key = await registerNode();
  await claimKind(key, "check"); // the node has asked for work: browser endpoints count it as available
});

describe("a composition over the limits", () => {
  it("render, snapshot, check and preview of a 100000x100000 canvas are 400s naming it, and queue nothing", async () => {
    const { s, slug } = await projectWith("limits-huge", { "index.html": composition("100000", "100000") });
    const message =
      'invalid composition: index.html is over the studio\'s limits: data-width="100000" is over the maximum of 4096 pixels per side; ' +
      'data-height="100000" is over the maximum of 4096 pixels per side';
    await expectRefused(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" }), message);
    await expectRefused(await api(s.token, "POST", `/api/projects/${slug}/render?wait=1`, {}), message);
    await expectRefused(await api(s.token, "POST", `/api/projects/${slug}/snapshot`, {}), message);
    await expectRefused(await api(s.token, "POST", `/api/projects/${slug}/check`, {}), message);
    await expectRefused(await api(s.token, "POST", `/api/projects/${slug}/preview`), message);
    expect(await count("jobs", s.userId)).toBe(0);
    expect(await count("renders", s.userId)).toBe(0);
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/render`))).toEqual({ status: "none", recent: [] });
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/preview`))).toEqual({ running: false });
    expect(await claimKind(key, "render")).toBeNull();
    // The linter (the endpoint and the dashboard editor's) says the same, as an error.
    const { result: lint } = await json<{ result: { ok: boolean; findings: { code: string; severity: string; message: string }[] } }>(
      await api(s.token, "POST", `/api/projects/${slug}/lint`),
    );
    expect(lint.ok).toBe(false);
    expect(lint.findings.filter((f) => f.code === "root_over_limit").map((f) => [f.severity, f.message])).toEqual([
      ["error", 'The root element\'s data-width="100000" is over the maximum of 4096 pixels per side.'],
      ["error", 'The root element\'s data-height="100000" is over the maximum of 4096 pixels per side.'],
    ]);
  });

  it("reads the canvas as the page runtime would (1e5), the area, the rate, the length, and the frames at the render's fps", async () => {
    const { s, slug } = await projectWith("limits-kinds", {
      "index.html": composition("1e5", "1080"),
      "compositions/square.html": composition("4096", "4096"),
      "compositions/fast.html": composition("1920", "1080", ' data-fps="240"'),
      "compositions/long.html": composition("1920", "1080", "", 7200),
      "compositions/half-hour.html": composition("1920", "1080", "", 1801),
    });
    const render = (body: Record<string, unknown>) => api(s.token, "POST", `/api/projects/${slug}/render`, body);
    const prefix = "invalid composition: ";
    await expectRefused(await render({}), `${prefix}index.html is over the studio's limits: data-width="1e5" is over the maximum of 4096 pixels per side`);
    await expectRefused(await api(s.token, "POST", `/api/projects/${slug}/snapshot`, {}), `${prefix}index.html is over the studio's limits: data-width="1e5" is over the maximum of 4096 pixels per side`);
    await expectRefused(
      await render({ composition: "compositions/square.html" }),
      `${prefix}compositions/square.html is over the studio's limits: data-width="4096" x data-height="4096" is 16,777,216 pixels, over the maximum of 8,847,360 (4096x2160)`,
    );
    await expectRefused(
      await render({ composition: "compositions/fast.html", fps: 30 }),
      `${prefix}compositions/fast.html is over the studio's limits: data-fps="240" is over the maximum of 120 fps`,
    );
    await expectRefused(
      await render({ composition: "compositions/long.html" }),
      `${prefix}compositions/long.html is over the studio's limits: data-duration="7200" is over the maximum of 3600 s`,
    );
    await expectRefused(
      await render({ composition: "compositions/half-hour.html", fps: 120 }),
      `${prefix}compositions/half-hour.html is over the studio's limits: data-duration="1801" at 120 fps (the fps option) is 216,120 frames, over the maximum of 216,000 frames`,
    );
    expect(await count("jobs", s.userId)).toBe(0);
    expect(await count("renders", s.userId)).toBe(0);
    // The same half hour at 60 fps is within the limits: it is queued.
    const fine = await render({ composition: "compositions/half-hour.html", fps: 60 });
    expect(fine.status).toBe(202);
    expect(await count("jobs", s.userId)).toBe(1);
    await api(s.token, "DELETE", `/api/projects/${slug}/render`);
  });
});

describe("4K in either orientation", () => {
  for (const [width, height] of [["3840", "2160"], ["2160", "3840"]] as const) {
    it(`${width}x${height} is linted clean of root_over_limit and rendered, snapshotted, checked and previewed`, async () => {
      const { s, slug } = await projectWith(`limits-${width}`, { "index.html": composition(width, height) });
      const { result: lint } = await json<{ result: { findings: { code: string }[] } }>(await api(s.token, "POST", `/api/projects/${slug}/lint`));
      expect(lint.findings.map((f) => f.code)).not.toContain("root_over_limit");

      const render = await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" });
      expect(render.status).toBe(202);
      expect((await claimKind(key, "render"))?.slug).toBe(slug);
      await api(s.token, "DELETE", `/api/projects/${slug}/render`);

      const snapshot = api(s.token, "POST", `/api/projects/${slug}/snapshot`, { frames: 1 });
      const snapJob = await awaitJob(key, "snapshot");
      await nodeCall(key, "POST", `/jobs/${snapJob.id}/complete`, { ok: true, result: { snapshots: [], log: [] } });
      expect((await snapshot).status).toBe(200);

      const check = api(s.token, "POST", `/api/projects/${slug}/check`, {});
      const checkJob = await awaitJob(key, "check");
      await nodeCall(key, "POST", `/jobs/${checkJob.id}/complete`, { ok: true, result: { runtime: [], layout: [], times: [] } });
      expect((await check).status).toBe(200);

      const preview = api(s.token, "POST", `/api/projects/${slug}/preview`);
      const previewJob = await awaitJob(key, "preview");
      await nodeCall(key, "POST", `/jobs/${previewJob.id}/preview`, { port: 3005 });
      expect(await json(await preview)).toMatchObject({ running: true, port: 3005 });
      await api(s.token, "DELETE", `/api/projects/${slug}/preview`);
    });
  }
});
