// The API as an agent meets it: machine codes on every error, 405 with Allow, query values checked the same way on
// every route, cursor pagination, and one render by id.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import { ERROR_CODES } from "../../worker/http/errors.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { postIdea } from "./idea-helpers.ts";
import { registerNode } from "./node-helpers.ts";

type ErrorJson = { error: string; code: string };

async function errorOf(res: Response, status: number): Promise<ErrorJson> {
  expect(res.status).toBe(status);
  const body = await json<ErrorJson>(res);
  expect(typeof body.error).toBe("string");
  expect(Object.keys(ERROR_CODES)).toContain(body.code);
  return body;
}

describe("error codes", () => {
  it("every error keeps its message and adds a stable code an agent can branch on", async () => {
    const s = await signIn("codes");
    await createProject(s.token, "Coded");
    expect((await errorOf(await api(null, "GET", "/api/projects"), 401)).code).toBe("unauthorized");
    expect(await errorOf(await api(s.token, "GET", "/api/projects/missing"), 404)).toEqual({ error: "no project named missing", code: "not_found" });
    expect((await errorOf(await api(s.token, "POST", "/api/projects", { name: "Coded" }), 409)).code).toBe("project_exists");
    expect((await errorOf(await api(s.token, "POST", "/api/projects", "{nope", { "Content-Type": "application/json" }), 400)).code).toBe("invalid_json");
    expect((await errorOf(await api(s.token, "POST", "/api/projects", { name: "" }), 400)).code).toBe("bad_request");
    expect((await errorOf(await api(s.token, "DELETE", "/api/projects/coded/files/index.html"), 403)).code).toBe("protected_file");
    expect((await errorOf(await api(s.token, "GET", "/api/nothing-here"), 404)).code).toBe("not_found");
    expect((await errorOf(await api(s.token, "GET", "/api/projects/coded/files/a.txt", undefined, { Range: "bytes=0-1" }), 404)).code).toBe("not_found");
    await api(s.token, "PUT", "/api/projects/coded/files/a.txt", "abc");
    expect((await errorOf(await api(s.token, "GET", "/api/projects/coded/files/a.txt", undefined, { Range: "bytes=50-60" }), 416)).code).toBe(
      "range_not_satisfiable",
    );
    // The one the issue names: a duplicate idea is a 409 with the existing idea and code duplicate_idea.
    await postIdea(s.token, "Waveform captions synced to narration", "Captions that bounce with the narrator's voice level.");
    const dup = await api(s.token, "POST", "/api/ideas", { title: "Waveform captions synced to narration", body: "Captions that bounce with the narrator's voice level." });
    const body = await errorOf(dup, 409);
    expect(body).toMatchObject({ code: "duplicate_idea", exists: true, idea: { title: "Waveform captions synced to narration" } });
  });

  it("the served docs list every code with its meaning", async () => {
    const text = await (await api(null, "GET", "/api/docs")).text();
    expect(text).toContain("# Error codes");
    for (const [code, meaning] of Object.entries(ERROR_CODES)) expect(text).toContain(`${code}: ${meaning}`);
  });
});

describe("405 Method Not Allowed", () => {
  it("a known path with a wrong method is a 405 naming the methods it takes; unknown paths stay 404", async () => {
    const s = await signIn("methods");
    await createProject(s.token, "Meth");
    const patch = await api(s.token, "PATCH", "/api/projects/meth", { name: "x" });
    expect((await errorOf(patch, 405)).code).toBe("method_not_allowed");
    expect(patch.headers.get("Allow")).toBe("GET, HEAD, DELETE");
    const put = await api(s.token, "PUT", "/api/projects", { name: "x" });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, HEAD, POST");
    const health = await api(null, "DELETE", "/api/health");
    expect(health.status).toBe(405);
    expect(health.headers.get("Allow")).toBe("GET, HEAD");
    // Outside /api too: the download path takes GET and DELETE.
    const download = await api(s.token, "POST", "/renders/meth_2026-01-01_00-00-00.mp4");
    expect(download.status).toBe(405);
    expect(download.headers.get("Allow")).toBe("GET, HEAD, DELETE");
    // Nothing changed: the project is still there under its name.
    expect((await api(s.token, "GET", "/api/projects/meth")).status).toBe(200);
    expect((await errorOf(await api(s.token, "PATCH", "/api/no-such-thing"), 404)).code).toBe("not_found");
  });
});

describe("query values", () => {
  it("a flag is true, false, 1 or 0 everywhere; ?wait=yes is a 400 that starts nothing", async () => {
    await registerNode();
    const s = await signIn("queries");
    await createProject(s.token, "Qs");
    const yes = await errorOf(await api(s.token, "POST", "/api/projects/qs/render?wait=yes", {}), 400);
    expect(yes).toEqual({ error: "invalid query wait: must be true, false, 1 or 0", code: "invalid_query" });
    expect((await json<{ status: string }>(await api(s.token, "GET", "/api/projects/qs/render"))).status).toBe("none");

    await api(s.token, "PUT", "/api/projects/qs/files/a.txt", "abc");
    expect((await errorOf(await api(s.token, "GET", "/api/projects/qs/files/a.txt?download=maybe"), 400)).code).toBe("invalid_query");
    for (const [query, attachment] of [["?download", true], ["?download=1", true], ["?download=true", true], ["?download=0", false], ["?download=false", false], ["", false]] as const) {
      const res = await api(s.token, "GET", `/api/projects/qs/files/a.txt${query}`);
      expect(res.status).toBe(200);
      expect((res.headers.get("Content-Disposition") ?? "").startsWith("attachment"), query).toBe(attachment);
    }
    // Unknown parameters are refused, not ignored; the token may ride in the query anywhere.
    expect(await errorOf(await api(s.token, "GET", "/api/projects?sort=name"), 400)).toEqual({ error: "unknown query parameter sort", code: "invalid_query" });
    expect((await api(null, "GET", `/api/projects/qs/files/a.txt?token=${s.token}&download=0`)).status).toBe(200);
    expect((await errorOf(await api(s.token, "PUT", "/api/projects/qs/files/b.txt?encoding=hex", "00"), 400)).code).toBe("invalid_query");
    expect((await api(s.token, "GET", "/api/projects/qs/files/b.txt")).status).toBe(404);
    expect((await errorOf(await api(null, "GET", "/api/ideas?limit=many"), 400)).code).toBe("invalid_query");
  });
});

describe("cursor pagination", () => {
  it("walks the caller's projects with limit and next, in the unpaged order, and refuses foreign cursors", async () => {
    const s = await signIn("pager");
    for (const name of ["P1", "P2", "P3", "P4", "P5"]) await createProject(s.token, name);
    const whole = await json<{ projects: { name: string }[]; next: null }>(await api(s.token, "GET", "/api/projects"));
    expect(whole.next).toBeNull();
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const page: { projects: { name: string }[]; next: string | null } = await json(
        await api(s.token, "GET", `/api/projects?limit=2${next ? `&next=${next}` : ""}`),
      );
      expect(page.projects.length).toBeLessThanOrEqual(2);
      seen.push(...page.projects.map((p) => p.name));
      next = page.next;
      pages++;
    } while (next);
    expect(pages).toBe(3);
    expect(seen).toEqual(whole.projects.map((p) => p.name));
    expect(new Set(seen).size).toBe(5);

    expect((await errorOf(await api(s.token, "GET", "/api/projects?limit=2&next=garbage"), 400)).code).toBe("invalid_cursor");
    expect((await errorOf(await api(s.token, "GET", "/api/projects?limit=0"), 400)).code).toBe("invalid_query");
    expect((await errorOf(await api(s.token, "GET", "/api/projects?limit=101"), 400)).code).toBe("invalid_query");
    // Another user following this cursor sees only their own (no) projects.
    const first = await json<{ next: string }>(await api(s.token, "GET", "/api/projects?limit=2"));
    const other = await signIn("pager-other");
    expect(await json(await api(other.token, "GET", `/api/projects?limit=2&next=${first.next}`))).toEqual({ projects: [], next: null });
    // A cursor of one list is refused by another.
    expect((await errorOf(await api(s.token, "GET", `/api/renders?limit=2&next=${first.next}`), 400)).code).toBe("invalid_cursor");
  });

  it("walks renders and ideas the same way", async () => {
    const s = await signIn("pager-renders");
    const now = Date.now();
    for (let i = 0; i < 3; i++) {
      await env.DB.prepare("INSERT INTO renders (id, user_id, slug, filename, format, status, size, started_at, done_at) VALUES (?, ?, 'r', ?, 'mp4', 'done', 10, ?, ?)")
        .bind(`paged-${i}`, s.userId, `r_2026-01-0${i + 1}_00-00-00.mp4`, now - i * 1000, now - i * 1000)
        .run();
    }
    const page1 = await json<{ renders: { filename: string }[]; next: string }>(await api(s.token, "GET", "/api/renders?limit=2"));
    expect(page1.renders.map((r) => r.filename)).toEqual(["r_2026-01-01_00-00-00.mp4", "r_2026-01-02_00-00-00.mp4"]);
    const page2 = await json<{ renders: { filename: string }[]; next: null }>(await api(s.token, "GET", `/api/renders?limit=2&next=${page1.next}`));
    expect(page2).toEqual({ renders: [expect.objectContaining({ filename: "r_2026-01-03_00-00-00.mp4", project: "r", url: "/renders/r_2026-01-03_00-00-00.mp4" })], next: null });

    const group = `pg-${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("INSERT INTO idea_groups (slug, name, created_at) VALUES (?, ?, ?)").bind(group, group, now).run();
    const titles = ["Lottie import for logo stings", "Beat-synced cuts from an audio file", "Per-word karaoke highlight"];
    for (const title of titles) await postIdea(s.token, title, `${title}: details that differ.`, { group });
    const first = await json<{ ideas: { title: string }[]; next: string; nextOffset: number }>(await api(null, "GET", `/api/ideas?group=${group}&sort=new&limit=2`));
    expect(first.ideas.map((i) => i.title)).toEqual([titles[2], titles[1]]);
    expect(first.nextOffset).toBe(2);
    const rest = await json<{ ideas: { title: string }[]; next: null }>(await api(null, "GET", `/api/ideas?group=${group}&sort=new&limit=2&next=${first.next}`));
    expect(rest.ideas.map((i) => i.title)).toEqual([titles[0]]);
    expect(rest.next).toBeNull();
  });
});

describe("GET /api/renders/:id", () => {
  it("returns one render in any state: live from its room, then from D1 once another render replaced it", async () => {
    await registerNode();
    const s = await signIn("render-by-id");
    await createProject(s.token, "Byid");
    const started = await json<{ id: string; status: string }>(await api(s.token, "POST", "/api/projects/byid/render", { format: "webm", quality: "draft" }));
    const live = await json<Record<string, unknown>>(await api(s.token, "GET", `/api/renders/${started.id}`));
    expect(live).toMatchObject({ id: started.id, slug: "byid", status: "queued", format: "webm", quality: "draft", eventsUrl: "/api/projects/byid/render/events" });
    expect(live.lines).toBeUndefined();

    await api(s.token, "DELETE", "/api/projects/byid/render");
    const second = await json<{ id: string }>(await api(s.token, "POST", "/api/projects/byid/render", { format: "gif" }));
    expect(second.id).not.toBe(started.id);
    const old = await json<Record<string, unknown>>(await api(s.token, "GET", `/api/renders/${started.id}`));
    expect(old).toMatchObject({ id: started.id, status: "cancelled", format: "webm", quality: "draft", downloadUrl: null });
    expect((await json<{ status: string; format: string }>(await api(s.token, "GET", `/api/renders/${second.id}`))).format).toBe("gif");

    const other = await signIn("render-by-id-other");
    expect((await errorOf(await api(other.token, "GET", `/api/renders/${started.id}`), 404)).code).toBe("not_found");
    expect((await errorOf(await api(s.token, "GET", "/api/renders/no-such-id"), 404)).code).toBe("not_found");
    await api(s.token, "DELETE", "/api/projects/byid/render");
  });
});

describe("Idempotency-Key", () => {
  const countProjects = async (userId: string) =>
    (await env.DB.prepare("SELECT count(*) AS n FROM projects WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

  it("a retried create replays the first answer and creates once; another body with the key is a 422", async () => {
    const s = await signIn("idem");
    const key = { "Idempotency-Key": "create-promo-1" };
    const first = await api(s.token, "POST", "/api/projects", { name: "Promo" }, key);
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    const again = await api(s.token, "POST", "/api/projects", { name: "Promo" }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(await countProjects(s.userId)).toBe(1);
    // Without the key the same body is a new request: a 409, the project exists.
    expect((await api(s.token, "POST", "/api/projects", { name: "Promo" })).status).toBe(409);

    const other = await errorOf(await api(s.token, "POST", "/api/projects", { name: "Other" }, key), 422);
    expect(other.code).toBe("idempotency_key_reused");
    expect(await countProjects(s.userId)).toBe(1);
    // Another route with the key is another request too.
    expect((await errorOf(await api(s.token, "POST", "/api/projects/promo/render", {}, key), 422)).code).toBe("idempotency_key_reused");

    // Keys are per caller: another user's equal key creates their own project.
    const t = await signIn("idem-other");
    expect((await api(t.token, "POST", "/api/projects", { name: "Promo" }, key)).status).toBe(201);
    expect(await countProjects(t.userId)).toBe(1);

    expect((await errorOf(await api(s.token, "POST", "/api/projects", { name: "Bad" }, { "Idempotency-Key": "" }), 400)).code).toBe("invalid_idempotency_key");
    expect((await errorOf(await api(s.token, "POST", "/api/projects", { name: "Bad" }, { "Idempotency-Key": "x".repeat(256) }), 400)).code).toBe(
      "invalid_idempotency_key",
    );
  });

  it("a record older than 24 h is forgotten: the key starts over", async () => {
    const s = await signIn("idem-old");
    const key = { "Idempotency-Key": "old-key" };
    expect((await api(s.token, "POST", "/api/projects", { name: "Aged" }, key)).status).toBe(201);
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = created_at - ? WHERE key = 'old-key'").bind(24 * 3_600_000 + 1000).run();
    // The same request is run again (now a 409: the project exists), not replayed.
    const late = await api(s.token, "POST", "/api/projects", { name: "Aged" }, key);
    expect(late.status).toBe(409);
    expect(late.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("renders, ideas and comments: one render, one idea, one comment however often the POST is retried", async () => {
    await registerNode();
    const s = await signIn("idem-all");
    await createProject(s.token, "Idr");
    const r1 = await json<{ id: string }>(await api(s.token, "POST", "/api/projects/idr/render", { format: "gif" }, { "Idempotency-Key": "r" }));
    await api(s.token, "DELETE", "/api/projects/idr/render");
    // Without the key this retry would start a second render (the first was cancelled); with it, the first answer.
    const r2 = await api(s.token, "POST", "/api/projects/idr/render", { format: "gif" }, { "Idempotency-Key": "r" });
    expect(r2.status).toBe(202);
    expect((await json<{ id: string }>(r2)).id).toBe(r1.id);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM renders WHERE user_id = ?").bind(s.userId).first<{ n: number }>())!.n).toBe(1);

    const idea = { title: "Idempotent idea about shader transitions", body: "Transitions written as GLSL shaders." };
    const i1 = await json<{ idea: { id: number } }>(await api(s.token, "POST", "/api/ideas", idea, { "Idempotency-Key": "i" }));
    const i2 = await api(s.token, "POST", "/api/ideas", idea, { "Idempotency-Key": "i" });
    expect(i2.status).toBe(201);
    expect((await json<{ idea: { id: number } }>(i2)).idea.id).toBe(i1.idea.id);

    const path = `/api/ideas/${i1.idea.id}/comments`;
    await api(s.token, "POST", path, { body: "Me too" }, { "Idempotency-Key": "c" });
    await api(s.token, "POST", path, { body: "Me too" }, { "Idempotency-Key": "c" });
    const full = await json<{ comments: unknown[] }>(await api(null, "GET", `/api/ideas/${i1.idea.id}`));
    expect(full.comments).toHaveLength(1);
  });
});

describe("Idempotency-Key under a race", () => {
  it("parallel retries with one key create once: the others replay it or are told it is in progress", async () => {
    const s = await signIn("idem-race");
    const key = { "Idempotency-Key": "race-1" };
    const answers = await Promise.all([1, 2, 3, 4].map(() => api(s.token, "POST", "/api/projects", { name: "Raced" }, key)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((st) => st === 201).length).toBeGreaterThanOrEqual(1);
    for (const res of answers) {
      if (res.status === 201) continue;
      expect(res.status).toBe(409);
      expect((await json<ErrorJson>(res)).code).toBe("idempotency_in_progress");
      expect(res.headers.get("Retry-After")).toBe("1");
    }
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM projects WHERE user_id = ?").bind(s.userId).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe("Idempotency-Key after a lost first request", () => {
  it("a key whose first request never answered (its isolate died) starts over after 15 minutes instead of a day of 409s", async () => {
    const s = await signIn("idem-lost");
    // The row the first request left: the same request's fingerprint (method, path, body), no answer yet.
    const fingerprint = await sha256Hex(`POST /api/projects\n${await sha256Hex(JSON.stringify({ name: "Lost" }))}`);
    await env.DB.prepare("INSERT INTO idempotency_keys (caller, key, fingerprint, status, body, content_type, created_at) VALUES (?, 'lost', ?, NULL, NULL, NULL, ?)")
      .bind(`user:${s.userId}`, fingerprint, Date.now() - 60_000)
      .run();
    expect((await errorOf(await api(s.token, "POST", "/api/projects", { name: "Lost" }, { "Idempotency-Key": "lost" }), 409)).code).toBe("idempotency_in_progress");
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE key = 'lost'").bind(Date.now() - 16 * 60_000).run();
    expect((await api(s.token, "POST", "/api/projects", { name: "Lost" }, { "Idempotency-Key": "lost" })).status).toBe(201);
  });
});
