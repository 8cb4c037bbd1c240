// Research records (public reads, bot/admin creation, changes only by the record's author or an admin, exactly the
// seed's fields) and the idea-board metrics.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, json, signIn } from "./helpers.ts";
import { browser, countRows, issueBot, postIdea, setEnv } from "./idea-helpers.ts";

const SEED_FIELDS = ["id", "slug", "kind", "name", "summary", "body_md", "lines", "author", "sources", "related", "verified_at", "updated_at", "cover_url"].sort();

describe("research records", () => {
  it("a bot creates, the public reads with exactly the seed's fields, an admin updates with PUT", async () => {
    const owner = await signIn("research-owner");
    const { key } = await issueBot(owner.token, "Research bot");
    const body_md = "# Findings\n\n<script>alert(1)</script> stays as given.";
    const created = await api(key, "POST", "/api/research", {
      slug: "gsap-easing",
      name: "GSAP easing",
      summary: "Which eases agents pick",
      body_md,
      lines: ["Ease out wins", "Bounce is rare"],
      sources: [{ url: "https://gsap.com/docs" }],
      verified_at: "2026-11-01T00:00:00Z",
      cover_url: "https://example.com/cover.png",
    });
    expect(created.status).toBe(201);
    const record = await json<Record<string, unknown>>(created);
    expect(Object.keys(record).sort()).toEqual(SEED_FIELDS);
    expect(record).toMatchObject({ slug: "gsap-easing", kind: "research", author: "Research bot", body_md, related: null, lines: ["Ease out wins", "Bounce is rare"] });
    expect(typeof record.id).toBe("number");
    expect(new Date(String(record.updated_at)).toISOString()).toBe(record.updated_at);

    const read = await json<Record<string, unknown>>(await api(null, "GET", "/api/research/gsap-easing"));
    expect(read).toEqual(record);
    expect((await api(key, "POST", "/api/research", { slug: "gsap-easing", name: "x", body_md: "" })).status).toBe(409);

    const admin = await signIn("research-admin");
    const restore = setEnv({ ADMIN_USER_IDS: admin.userId });
    try {
      const put = await api(admin.token, "PUT", "/api/research/gsap-easing", { name: "GSAP easing, revised", body_md: "Updated.", related: ["motion-blur"] });
      expect(put.status).toBe(200);
      const updated = await json<Record<string, unknown>>(put);
      expect(updated).toMatchObject({ id: record.id, name: "GSAP easing, revised", related: ["motion-blur"], summary: null });
      const fresh = await api(admin.token, "PUT", "/api/research/new-topic", { kind: "survey", name: "New topic", body_md: "Hi" });
      expect(fresh.status).toBe(201);
      expect((await api(admin.token, "PUT", "/api/research/a-b", { slug: "c-d", name: "x", body_md: "" })).status).toBe(400);
    } finally {
      restore();
    }
    const surveys = await json<{ records: { slug: string }[] }>(await api(null, "GET", "/api/research?kind=survey"));
    expect(surveys.records.map((r) => r.slug)).toEqual(["new-topic"]);
    const all = await json<{ records: { slug: string }[] }>(await api(null, "GET", "/api/research"));
    expect(all.records.map((r) => r.slug).sort()).toEqual(["gsap-easing", "new-topic"]);
    expect((await api(null, "GET", "/api/research/nope")).status).toBe(404);
    expect((await api(null, "GET", "/api/research?kind=Bad Kind")).status).toBe(400);
  });

  it("refuses plain users, bad fields and unsafe cover URLs, writing nothing", async () => {
    const user = await signIn("research-user");
    const owner = await signIn("research-bot-owner");
    const { key } = await issueBot(owner.token, "bot");
    const before = await countRows("research_records");
    expect((await api(user.token, "POST", "/api/research", { slug: "x", name: "x", body_md: "x" })).status).toBe(403);
    expect((await api(null, "POST", "/api/research", { slug: "x", name: "x", body_md: "x" })).status).toBe(401);
    for (const bad of [
      { name: "no slug", body_md: "x" },
      { slug: "Bad Slug", name: "x", body_md: "x" },
      { slug: "ok", name: "x", body_md: 5 },
      { slug: "ok", name: "x", body_md: "x", lines: "not an array" },
      { slug: "ok", name: "x", body_md: "x", cover_url: "javascript:alert(1)" },
      { slug: "ok", name: "x", body_md: "x", verified_at: "yesterday" },
    ]) {
      const res = await api(key, "POST", "/api/research", bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
    expect(await countRows("research_records")).toBe(before);
  });
});

describe("research records belong to their author", () => {
  const record = (slug: string, extra: Record<string, unknown> = {}) => ({ slug, name: "Original", body_md: "Original text.", ...extra });
  const read = async (slug: string) => json<Record<string, unknown>>(await api(null, "GET", `/api/research/${slug}`));

  it("another person's bot, or a plain user, cannot overwrite or delete a record: 403 and nothing changes", async () => {
    const alice = await signIn("research-alice");
    const mallory = await signIn("research-mallory");
    const aliceBot = await issueBot(alice.token, "Alice's bot");
    const malloryBot = await issueBot(mallory.token, "Mallory's bot");
    expect((await api(aliceBot.key, "POST", "/api/research", record("owned-topic"))).status).toBe(201);
    const original = await read("owned-topic");

    const attacks: [string, string, unknown][] = [
      [malloryBot.key, "PUT", { name: "Hijacked", body_md: "pwned", author: "Alice's bot" }],
      [malloryBot.key, "PUT", { name: "Hijacked", body_md: "pwned" }],
      [mallory.token, "PUT", { name: "Hijacked", body_md: "pwned" }],
      [malloryBot.key, "DELETE", undefined],
      [mallory.token, "DELETE", undefined],
    ];
    for (const [key, method, body] of attacks) {
      const res = await api(key, method, "/api/research/owned-topic", body);
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(403);
      expect((await json<{ error: string }>(res)).error).toMatch(/only the record's author/);
    }
    expect((await api(malloryBot.key, "POST", "/api/research", record("owned-topic", { name: "Hijacked" }))).status).toBe(409);
    expect(await read("owned-topic")).toEqual(original);
  });

  it("the author is always the creator: a body cannot set or change it (400, nothing written)", async () => {
    const owner = await signIn("research-author-owner");
    const bot = await issueBot(owner.token, "Honest bot");
    const before = await countRows("research_records");
    const spoofed = await api(bot.key, "POST", "/api/research", record("spoofed", { author: "Famous researcher" }));
    expect(spoofed.status).toBe(400);
    expect((await json<{ error: string }>(spoofed)).error).toMatch(/invalid author/);
    expect(await countRows("research_records")).toBe(before);

    expect((await api(bot.key, "POST", "/api/research", record("honest", { author: "Honest bot" }))).status).toBe(201);
    const original = await read("honest");
    expect(original.author).toBe("Honest bot");
    expect((await api(bot.key, "PUT", "/api/research/honest", { name: "Changed", body_md: "x", author: "Someone else" })).status).toBe(400);
    expect(await read("honest")).toEqual(original);
    // Writing back what was read (author included) is fine.
    const { id: _id, updated_at: _u, ...same } = original;
    expect((await api(bot.key, "PUT", "/api/research/honest", { ...same, name: "Revised" })).status).toBe(200);
    expect(await read("honest")).toMatchObject({ name: "Revised", author: "Honest bot" });
  });

  it("the bot that wrote it, its owner (any of their credentials) and admins may change and delete it", async () => {
    const owner = await signIn("research-bot-parent");
    const bot = await issueBot(owner.token, "Writer bot");
    const sibling = await issueBot(owner.token, "Sibling bot");
    expect((await api(bot.key, "POST", "/api/research", record("family-topic"))).status).toBe(201);
    const id = (await read("family-topic")).id;
    for (const [key, name] of [[bot.key, "By the bot"], [owner.token, "By the owner"], [sibling.key, "By a sibling bot"]] as const) {
      const res = await api(key, "PUT", "/api/research/family-topic", { name, body_md: "x" });
      expect(res.status, name).toBe(200);
      // The id and the author survive every change, whoever makes it.
      expect(await json(res)).toMatchObject({ id, name, author: "Writer bot" });
    }

    const admin = await signIn("research-admin-2");
    const restore = setEnv({ ADMIN_USER_IDS: admin.userId });
    try {
      expect(await json(await api(admin.token, "PUT", "/api/research/family-topic", { name: "By an admin", body_md: "x" }))).toMatchObject({ id, author: "Writer bot" });
      expect((await api(bot.key, "POST", "/api/research", record("doomed-topic"))).status).toBe(201);
      expect(await json(await api(admin.token, "DELETE", "/api/research/doomed-topic"))).toEqual({ deleted: true, slug: "doomed-topic" });
      expect((await api(null, "GET", "/api/research/doomed-topic")).status).toBe(404);
    } finally {
      restore();
    }
    expect(await json(await api(owner.token, "DELETE", "/api/research/family-topic"))).toEqual({ deleted: true, slug: "family-topic" });
    expect((await api(null, "GET", "/api/research/family-topic")).status).toBe(404);
    expect((await api(owner.token, "DELETE", "/api/research/family-topic")).status).toBe(404);
  });

  it("a record from before ownership (no owner on record) can be changed only by an admin", async () => {
    await env.DB.prepare("INSERT INTO research_records (slug, kind, name, body_md, lines, author, updated_at) VALUES (?, 'research', ?, ?, '[]', ?, ?)")
      .bind("legacy-topic", "Legacy", "Old.", "Old bot", new Date().toISOString())
      .run();
    const owner = await signIn("research-legacy-bot-owner");
    const bot = await issueBot(owner.token, "Old bot");
    expect((await api(bot.key, "PUT", "/api/research/legacy-topic", { name: "Claimed", body_md: "x" })).status).toBe(403);
    expect((await read("legacy-topic")).name).toBe("Legacy");
    const admin = await signIn("research-admin-3");
    const restore = setEnv({ ADMIN_USER_IDS: admin.userId });
    try {
      expect((await api(admin.token, "PUT", "/api/research/legacy-topic", { name: "Curated", body_md: "x" })).status).toBe(200);
    } finally {
      restore();
    }
    expect(await read("legacy-topic")).toMatchObject({ name: "Curated", author: "Old bot" });
  });
});

describe("metrics", () => {
  it("counts ideas by status and group, votes, enrichments, comments, active humans and bots, refusals", async () => {
    const empty = await json<Record<string, unknown>>(await api(null, "GET", "/api/metrics"));
    expect(empty).toHaveProperty("ideas.total");
    const human = await signIn("metrics-human");
    const { key } = await issueBot(human.token, "metrics bot");
    const a = await postIdea(human.token, "Metrics idea about film grain overlay");
    await postIdea(key, "Metrics idea about chromatic aberration");
    await api(key, "POST", `/api/ideas/${a.id}/vote`);
    const enrich = await json<{ enrichment: { id: number } }>(await api(human.token, "POST", `/api/ideas/${a.id}/enrich`, { kind: "angle", body: "Retro." }));
    await api(key, "POST", `/api/enrichments/${enrich.enrichment.id}/vote`);
    await api(human.token, "POST", `/api/ideas/${a.id}/comments`, { body: "Nice" });
    expect((await api(key, "POST", "/api/ideas", { title: "Film grain overlay", body: "dup" })).status).toBe(409);

    const m = await json<{
      ideas: { total: number; byStatus: Record<string, number>; byGroup: Record<string, number>; ungrouped: number; postedToday: number; postedThisWeek: number };
      votes: { ideas: number; enrichments: number };
      enrichments: number;
      comments: number;
      active: { humans: number; bots: number; windowDays: number };
      duplicatesRefused: number;
    }>(await api(null, "GET", "/api/metrics"));
    expect(m.ideas).toMatchObject({ total: 2, byStatus: { open: 2, building: 0, shipped: 0 }, ungrouped: 2, postedToday: 2, postedThisWeek: 2 });
    expect(m.votes).toEqual({ ideas: 1, enrichments: 1 });
    expect(m.enrichments).toBe(1);
    expect(m.comments).toBe(1);
    expect(m.active).toEqual({ windowDays: 30, humans: 1, bots: 1 });
    expect(m.duplicatesRefused).toBe(1);
  });

  it("a refused cross-site cookie write changes no metric", async () => {
    const s = await signIn("metrics-csrf");
    const before = await json<unknown>(await api(null, "GET", "/api/metrics"));
    const res = await browser(s.cookie, "POST", "/api/ideas", { title: "Cross site metric bump", body: "x" }, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await json<unknown>(await api(null, "GET", "/api/metrics"))).toEqual(before);
  });
});
