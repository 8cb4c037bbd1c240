// Who may write to the idea board and how: cookie writes need a same-origin request, bot keys mark their posts
// as a bot's, every person has one vote and one write budget however many bot keys they hold (at most 5), and
// admins alone change statuses and create groups.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, BASE, json, signIn } from "./helpers.ts";
import { browser, countRows, type IdeaJson, issueBot, postIdea, setEnv } from "./idea-helpers.ts";
import { registerNode } from "./node-helpers.ts";

describe("cookie writes and the Origin rule", () => {
  it("accepts a cookie write from our own origin or with Sec-Fetch-Site same-origin", async () => {
    const s = await signIn("cookie-ok");
    const viaOrigin = await browser(s.cookie, "POST", "/api/ideas", { title: "Confetti burst transition", body: "Party." }, { Origin: BASE });
    expect(viaOrigin.status).toBe(201);
    const idea = (await json<{ idea: IdeaJson }>(viaOrigin)).idea;
    expect(idea.isBot).toBe(false);
    const viaFetchSite = await browser(s.cookie, "POST", `/api/ideas/${idea.id}/vote`, undefined, { "Sec-Fetch-Site": "same-origin" });
    expect(viaFetchSite.status).toBe(200);
    expect(await viaFetchSite.json()).toMatchObject({ voted: true, votes: 1 });
  });

  it("refuses a cookie write from another origin or with no Origin at all, writing nothing", async () => {
    const s = await signIn("cookie-csrf");
    const before = await countRows("ideas");
    const cases: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" },
      { "Sec-Fetch-Site": "cross-site" },
      {},
      { Origin: "null" },
    ];
    for (const headers of cases) {
      const res = await browser(s.cookie, "POST", "/api/ideas", { title: "Forged idea from elsewhere", body: "csrf" }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
    expect(await countRows("ideas")).toBe(before);
    // The same person with their API token is not subject to the browser rule, and counts as a human.
    const withToken = await postIdea(s.token, "Token posted idea about tilt shift");
    expect(withToken.isBot).toBe(false);
  });
});

describe("bot keys", () => {
  it("issues a key shown once, lists and revokes it; the bot posts as a bot", async () => {
    const owner = await signIn("bot-owner");
    const issued = await issueBot(owner.token, "Daily idea bot");
    expect(issued.key).toMatch(/^stb_[A-Za-z0-9_-]{40,}$/);
    expect(issued.bot.name).toBe("Daily idea bot");
    const listed = await json<{ bots: Record<string, unknown>[] }>(await api(owner.token, "GET", "/api/bots"));
    expect(listed.bots.map((b) => b.id)).toEqual([issued.bot.id]);
    expect(JSON.stringify(listed)).not.toContain(issued.key);

    const res = await api(issued.key, "POST", "/api/ideas", { title: "Weekly highlight reel generator", body: "From bot." });
    expect(res.status).toBe(201);
    const idea = (await json<{ idea: IdeaJson }>(res)).idea;
    expect(idea).toMatchObject({ isBot: true, name: "Daily idea bot" });
    const read = await json<{ idea: IdeaJson }>(await api(null, "GET", `/api/ideas/${idea.id}`));
    expect(read.idea.isBot).toBe(true);
    // A bot cannot mint bots; a stranger cannot revoke someone else's bot.
    expect((await api(issued.key, "POST", "/api/bots", { name: "child" })).status).toBe(403);
    const stranger = await signIn("bot-stranger");
    expect((await api(stranger.token, "DELETE", `/api/bots/${issued.bot.id}`)).status).toBe(404);
    expect((await json<{ bots: unknown[] }>(await api(stranger.token, "GET", "/api/bots"))).bots).toEqual([]);

    const revoked = await api(owner.token, "DELETE", `/api/bots/${issued.bot.id}`);
    expect(revoked.status).toBe(200);
    const after = await api(issued.key, "POST", "/api/ideas", { title: "Posted after revocation", body: "x" });
    expect(after.status).toBe(401);
    expect((await json<{ bots: unknown[] }>(await api(owner.token, "GET", "/api/bots"))).bots).toEqual([]);
  });

  it("a duplicate from a bot gets 409 with the idea, so it can vote for it instead", async () => {
    const owner = await signIn("dup-bot-owner");
    const { key } = await issueBot(owner.token, "dup bot");
    const original = await postIdea(owner.token, "Beat-synced cuts to the music", "Cut on every beat.");
    const res = await api(key, "POST", "/api/ideas", { title: "Cuts synced to the music beats", body: "Cut on the beat." });
    expect(res.status).toBe(409);
    const body = await json<{ exists: boolean; idea: IdeaJson }>(res);
    expect(body.exists).toBe(true);
    const vote = await api(key, "POST", `/api/ideas/${body.idea.id}/vote`);
    expect(await vote.json()).toMatchObject({ voted: true, votes: 1 });
    expect(body.idea.id).toBe(original.id);
  });

  it("a bot doing what a 409 asks never removes the vote its owner already cast (ideas and enrichments)", async () => {
    const owner = await signIn("dup-bot-voter");
    const { key } = await issueBot(owner.token, "dup voter bot");
    const author = await signIn("dup-bot-author");
    const original = await postIdea(author.token, "Auto-ducking music under voice-over", "Lower the music when someone speaks.");
    expect(await json(await api(owner.token, "POST", `/api/ideas/${original.id}/vote`))).toMatchObject({ voted: true, votes: 1 });
    // The bot posts the same idea on three runs, gets 409 each time and votes for the existing idea as told.
    for (let run = 0; run < 3; run++) {
      const dup = await api(key, "POST", "/api/ideas", { title: "Auto-duck the music under voice-over", body: "Duck music when someone speaks." });
      expect(dup.status).toBe(409);
      const { idea } = await json<{ idea: IdeaJson }>(dup);
      expect(await json(await api(key, "POST", `/api/ideas/${idea.id}/vote`))).toEqual({ id: original.id, voted: true, votes: 1 });
    }
    expect((await json<{ idea: IdeaJson }>(await api(owner.token, "GET", `/api/ideas/${original.id}`))).idea).toMatchObject({ voted: true, votes: 1 });
    const rows = await env.DB.prepare("SELECT voter, cast_by FROM idea_votes WHERE idea_id = ?").bind(original.id).all<{ voter: string; cast_by: string }>();
    expect(rows.results).toEqual([{ voter: `user:${owner.userId}`, cast_by: `user:${owner.userId}` }]);
    // Enrichment votes follow the same rule.
    const enrichment = await json<{ enrichment: { id: number } }>(await api(author.token, "POST", `/api/ideas/${original.id}/enrich`, { kind: "note", body: "x" }));
    await api(owner.token, "POST", `/api/enrichments/${enrichment.enrichment.id}/vote`);
    expect(await json(await api(key, "POST", `/api/enrichments/${enrichment.enrichment.id}/vote`))).toEqual({ id: enrichment.enrichment.id, voted: true, votes: 1 });
  });

  it("a bot or node key on a studio route is a 401 naming the key's kind, not a missing token", async () => {
    const owner = await signIn("wrong-kind-owner");
    const { key } = await issueBot(owner.token, "wrong kind bot");
    const node = await registerNode("wrong-kind-node");
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/api/me"],
      ["GET", "/api/projects"],
      ["POST", "/api/projects", { name: "Made by a key" }],
      ["GET", "/api/renders"],
      ["POST", "/api/webhooks/secret"],
    ];
    for (const [credential, kind] of [[key, "a bot key"], [node, "a render-node key"]] as const) {
      for (const [method, path, body] of routes) {
        const res = await api(credential, method, path, body);
        expect(res.status, `${kind} ${method} ${path}`).toBe(401);
        expect(await res.json()).toEqual({ error: `unauthorized: ${kind} cannot be used on studio routes; use a personal token`, code: "unauthorized" });
      }
    }
    // A node key managing bots is told the same (a bot key there is a 403, as before).
    expect(await json(await api(node, "GET", "/api/bots"))).toMatchObject({ error: "unauthorized: a render-node key cannot be used on studio routes; use a personal token" });
    expect((await api(key, "GET", "/api/bots")).status).toBe(403);
    // Nothing was made, and no key, a wrong one or an unknown kind still say so.
    expect((await json<{ projects: unknown[] }>(await api(owner.token, "GET", "/api/projects"))).projects).toEqual([]);
    expect(await json(await api(null, "GET", "/api/me"))).toMatchObject({ error: "unauthorized: missing token" });
    expect(await json(await api("stb_not-a-real-key", "GET", "/api/me"))).toMatchObject({ error: "unauthorized: invalid or revoked token" });
    expect(await json(await api("junk", "GET", "/api/me"))).toMatchObject({ error: "unauthorized: invalid or revoked token" });
  });

  it("rejects a bad bot body and unauthenticated bot management", async () => {
    const owner = await signIn("bot-bad");
    expect((await api(owner.token, "POST", "/api/bots", { name: "" })).status).toBe(400);
    expect((await api(owner.token, "POST", "/api/bots", { name: 7 })).status).toBe(400);
    expect((await api(null, "GET", "/api/bots")).status).toBe(401);
    expect((await api(null, "POST", "/api/bots", { name: "x" })).status).toBe(401);
    expect((await json<{ bots: unknown[] }>(await api(owner.token, "GET", "/api/bots"))).bots).toEqual([]);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a person spends the window's budget, per person (bots included)", async () => {
    const restore = setEnv({ IDEA_WRITE_LIMIT: "3", IDEA_WRITE_WINDOW_SECONDS: "600" });
    try {
      const s = await signIn("limited");
      const other = await signIn("not-limited");
      const idea = await postIdea(other.token, "Rate limit target idea about split screens");
      // A bot key is one write of its owner's budget, and its own writes spend the same budget.
      const bot = await issueBot(s.token, "budget sharer");
      for (let i = 0; i < 2; i++) expect((await api(s.token, "POST", `/api/ideas/${idea.id}/vote`)).status).toBe(200);
      const limited = await api(s.token, "POST", `/api/ideas/${idea.id}/comments`, { body: "one too many" });
      expect(limited.status).toBe(429);
      const retry = Number(limited.headers.get("Retry-After"));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(600);
      expect((await json<{ error: string }>(limited)).error).toMatch(/rate limited/);
      expect((await json<{ idea: IdeaJson }>(await api(null, "GET", `/api/ideas/${idea.id}`))).idea.comments).toBe(0);
      // The limited person's bot shares their budget: holding bot keys buys no extra writes.
      expect((await api(bot.key, "POST", `/api/ideas/${idea.id}/comments`, { body: "via my bot" })).status).toBe(429);
      // Another caller still has their own budget; reads are never limited.
      expect((await api(other.token, "POST", `/api/ideas/${idea.id}/vote`)).status).toBe(200);
      expect((await api(s.token, "GET", `/api/ideas/${idea.id}`)).status).toBe(200);
    } finally {
      restore();
    }
  });
});

describe("admins: statuses and groups", () => {
  it("lets an admin create groups and move an idea open -> building -> shipped; others get 403", async () => {
    const admin = await signIn("board-admin");
    const user = await signIn("board-user");
    const restore = setEnv({ ADMIN_USER_IDS: `someone-else, ${admin.userId}` });
    try {
      const denied = await api(user.token, "POST", "/api/groups", { slug: "editor", name: "Editor" });
      expect(denied.status).toBe(403);
      const created = await api(admin.token, "POST", "/api/groups", { slug: "editor", name: "Editor" });
      expect(created.status).toBe(201);
      expect((await api(admin.token, "POST", "/api/groups", { slug: "editor", name: "Again" })).status).toBe(409);
      expect((await api(admin.token, "POST", "/api/groups", { slug: "Bad Slug", name: "x" })).status).toBe(400);
      const groups = await json<{ groups: { slug: string; name: string }[] }>(await api(null, "GET", "/api/groups"));
      expect(groups.groups.map((g) => g.slug)).toContain("editor");

      const idea = await postIdea(user.token, "Ripple delete in the timeline", "Close gaps.", { group: "editor" });
      expect(idea.group).toBe("editor");
      expect((await api(user.token, "POST", "/api/ideas", { title: "Orphan in missing group", body: "x", group: "missing" })).status).toBe(400);
      const inGroup = await json<{ ideas: IdeaJson[] }>(await api(null, "GET", "/api/ideas?group=editor"));
      expect(inGroup.ideas.map((i) => i.id)).toEqual([idea.id]);

      expect((await api(user.token, "PATCH", `/api/ideas/${idea.id}`, { status: "building" })).status).toBe(403);
      const { key } = await issueBot(admin.token, "admin's bot");
      expect((await api(key, "PATCH", `/api/ideas/${idea.id}`, { status: "building" })).status).toBe(403);
      expect((await api(admin.token, "PATCH", `/api/ideas/${idea.id}`, { status: "shipped" })).status).toBe(409);
      expect((await api(admin.token, "PATCH", `/api/ideas/${idea.id}`, { status: "done" })).status).toBe(400);
      expect((await api(admin.token, "PATCH", `/api/ideas/${idea.id}`, {})).status).toBe(400);
      const building = await api(admin.token, "PATCH", `/api/ideas/${idea.id}`, { status: "building" });
      expect(building.status).toBe(200);
      expect((await json<{ idea: IdeaJson }>(building)).idea.status).toBe("building");
      const shipped = await api(admin.token, "PATCH", `/api/ideas/${idea.id}`, { status: "shipped" });
      expect((await json<{ idea: IdeaJson }>(shipped)).idea.status).toBe("shipped");
      const list = await json<{ ideas: IdeaJson[] }>(await api(null, "GET", "/api/ideas?status=shipped&group=editor"));
      expect(list.ideas.map((i) => i.id)).toEqual([idea.id]);
      expect((await api(admin.token, "PATCH", "/api/ideas/999999", { status: "building" })).status).toBe(404);
    } finally {
      restore();
    }
  });
});

describe("one person, one vote", () => {
  it("caps live bot keys at 5 per person (the 6th is a 409 and issues nothing); revoking frees a slot", async () => {
    const owner = await signIn("bot-hoarder");
    const bots = [];
    for (let i = 0; i < 5; i++) bots.push(await issueBot(owner.token, `bot ${i}`));
    const before = await countRows("bots");
    const sixth = await api(owner.token, "POST", "/api/bots", { name: "bot 5" });
    expect(sixth.status).toBe(409);
    expect((await json<{ error: string }>(sixth)).error).toMatch(/at most 5 per person/);
    expect(await countRows("bots")).toBe(before);
    // Parallel requests cannot slip past the cap either.
    const burst = await Promise.all(Array.from({ length: 4 }, (_, i) => api(owner.token, "POST", "/api/bots", { name: `burst ${i}` })));
    expect(burst.map((r) => r.status)).toEqual([409, 409, 409, 409]);
    // Another person has their own 5.
    const other = await signIn("bot-hoarder-2");
    expect((await api(other.token, "POST", "/api/bots", { name: "mine" })).status).toBe(201);
    expect((await api(owner.token, "DELETE", `/api/bots/${bots[0]!.bot.id}`)).status).toBe(200);
    expect((await api(owner.token, "POST", "/api/bots", { name: "replacement" })).status).toBe(201);
    expect((await json<{ bots: unknown[] }>(await api(owner.token, "GET", "/api/bots"))).bots).toHaveLength(5);
  });

  it("a person voting through their own token and 5 bot keys counts once, in sequence or all at once", async () => {
    const owner = await signIn("ballot-stuffer");
    const keys = [owner.token];
    for (let i = 0; i < 5; i++) keys.push((await issueBot(owner.token, `stuffer ${i}`)).key);
    const stranger = await signIn("ballot-stranger");
    const idea = await postIdea(stranger.token, "Vote stuffing target about lower thirds");
    for (const key of keys) {
      const vote = await json<{ voted: boolean; votes: number }>(await api(key, "POST", `/api/ideas/${idea.id}/vote`));
      // Every credential votes as the same person: the token casts the vote, each bot finds it cast and keeps it.
      expect(vote).toEqual({ id: idea.id, voted: true, votes: 1 });
    }
    const all = await Promise.all(keys.map((key) => api(key, "POST", `/api/ideas/${idea.id}/vote`)));
    expect(all.every((r) => r.status === 200)).toBe(true);
    const read = (await json<{ idea: IdeaJson }>(await api(null, "GET", `/api/ideas/${idea.id}`))).idea;
    expect(read.votes).toBeLessThanOrEqual(1);
    const rows = await env.DB.prepare("SELECT voter FROM idea_votes WHERE idea_id = ?").bind(idea.id).all<{ voter: string }>();
    expect(rows.results.map((r) => r.voter)).toEqual(read.votes === 1 ? [`user:${owner.userId}`] : []);
    // Enrichment votes follow the same rule.
    const enrichment = await json<{ enrichment: { id: number } }>(await api(stranger.token, "POST", `/api/ideas/${idea.id}/enrich`, { kind: "note", body: "x" }));
    const first = await json<{ votes: number }>(await api(keys[1]!, "POST", `/api/enrichments/${enrichment.enrichment.id}/vote`));
    const second = await json<{ votes: number; voted: boolean }>(await api(keys[2]!, "POST", `/api/enrichments/${enrichment.enrichment.id}/vote`));
    expect([first.votes, second.votes, second.voted]).toEqual([1, 1, true]);
    const third = await json<{ votes: number; voted: boolean }>(await api(owner.token, "POST", `/api/enrichments/${enrichment.enrichment.id}/vote`));
    expect([third.votes, third.voted]).toEqual([0, false]);
  });

  it("the migration makes existing bot votes their owner's: counted once, counts redone", async () => {
    const owner = await signIn("legacy-owner");
    const b1 = await issueBot(owner.token, "legacy 1");
    const b2 = await issueBot(owner.token, "legacy 2");
    const ideas = [];
    for (const title of ["Legacy vote idea about kinetic type", "Legacy vote idea about parallax", "Legacy vote idea about glitch cuts"]) {
      ideas.push(await postIdea(owner.token, title));
    }
    const [i1, i2, i3] = ideas.map((i) => i.id);
    const enrichment = await json<{ enrichment: { id: number } }>(await api(owner.token, "POST", `/api/ideas/${i1}/enrich`, { kind: "note", body: "x" }));
    // Votes as the old code stored them: one row per credential, counts including every bot.
    const legacy: [number, string][] = [
      [i1!, `user:${owner.userId}`],
      [i1!, `bot:${b1.bot.id}`],
      [i2!, `bot:${b1.bot.id}`],
      [i2!, `bot:${b2.bot.id}`],
      [i3!, "bot:revoked-long-ago"],
    ];
    for (const [id, voter] of legacy) {
      await env.DB.prepare("INSERT INTO idea_votes (idea_id, voter, created_at) VALUES (?, ?, ?)").bind(id, voter, Date.now()).run();
    }
    await env.DB.prepare("INSERT INTO enrichment_votes (enrichment_id, voter, created_at) VALUES (?, ?, ?)").bind(enrichment.enrichment.id, `bot:${b2.bot.id}`, Date.now()).run();
    await env.DB.prepare("UPDATE ideas SET votes = (SELECT count(*) FROM idea_votes WHERE idea_id = ideas.id)").run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0005_"));
    for (const query of migration!.queries.filter((q) => !/^\s*(CREATE|ALTER)/.test(q.replace(/^\s*--.*$/gm, "")))) {
      await env.DB.prepare(query).run();
    }
    const votes = async (id: number) => (await json<{ idea: IdeaJson }>(await api(owner.token, "GET", `/api/ideas/${id}`))).idea;
    expect(await votes(i1!)).toMatchObject({ votes: 1, voted: true });
    expect(await votes(i2!)).toMatchObject({ votes: 1, voted: true });
    expect(await votes(i3!)).toMatchObject({ votes: 1, voted: false });
    const castBy = await env.DB.prepare("SELECT voter, cast_by FROM idea_votes WHERE idea_id = ?").bind(i2).all<{ voter: string; cast_by: string }>();
    expect(castBy.results).toEqual([{ voter: `user:${owner.userId}`, cast_by: expect.stringMatching(/^bot:/) }]);
    const e = await env.DB.prepare("SELECT voter FROM enrichment_votes WHERE enrichment_id = ?").bind(enrichment.enrichment.id).all<{ voter: string }>();
    expect(e.results).toEqual([{ voter: `user:${owner.userId}` }]);
    // A bot's vote keeps the owner's single vote; the owner's token takes it back.
    expect(await json(await api(b2.key, "POST", `/api/ideas/${i2}/vote`))).toMatchObject({ voted: true, votes: 1 });
    expect(await json(await api(owner.token, "POST", `/api/ideas/${i2}/vote`))).toMatchObject({ voted: false, votes: 0 });
  });
});
