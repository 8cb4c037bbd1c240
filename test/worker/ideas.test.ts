// The idea board as a client sees it: posting, listing and sorting, duplicates, votes, enrichments, comments.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, json, signIn } from "./helpers.ts";
import { countRows, type IdeaJson, issueBot, postIdea } from "./idea-helpers.ts";

describe("posting and reading ideas", () => {
  it("creates an idea with every documented field and reads it back publicly", async () => {
    const s = await signIn("poster");
    const res = await api(s.token, "POST", "/api/ideas", {
      title: "Animated lower thirds",
      body: "Name and title cards that slide in.",
      source: "user interview",
    });
    expect(res.status).toBe(201);
    const { idea } = await json<{ idea: IdeaJson }>(res);
    expect(idea).toMatchObject({
      title: "Animated lower thirds",
      body: "Name and title cards that slide in.",
      source: "user interview",
      name: "poster",
      isBot: false,
      group: null,
      status: "open",
      votes: 0,
      voted: false,
      enrichments: 0,
      comments: 0,
    });
    expect(typeof idea.id).toBe("number");
    expect(new Date(idea.createdAt).toISOString()).toBe(idea.createdAt);

    const anon = await api(null, "GET", `/api/ideas/${idea.id}`);
    expect(anon.status).toBe(200);
    const detail = await json<{ idea: IdeaJson; enrichments: unknown[]; comments: unknown[] }>(anon);
    expect(detail.idea.title).toBe("Animated lower thirds");
    expect(detail.enrichments).toEqual([]);
    expect(detail.comments).toEqual([]);
  });

  it("uses the given display name and answers 404 for unknown or malformed ids", async () => {
    const s = await signIn("namer");
    const idea = await postIdea(s.token, "Podcast waveform visualiser", "Bars that follow the audio.", { name: "Nina" });
    expect(idea.name).toBe("Nina");
    expect((await api(null, "GET", "/api/ideas/999999")).status).toBe(404);
    const bad = await api(null, "GET", "/api/ideas/abc");
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({ error: "no such idea", code: "not_found" });
  });

  it("sorts new, top and hot, filters by status, and pages with limit and offset", async () => {
    const s = await signIn("sorter");
    const voters = await Promise.all(["v1", "v2", "v3"].map((n) => signIn(`sorter-${n}`)));
    const old = await postIdea(s.token, "Quarantine zone for corrupted uploads");
    const mid = await postIdea(s.token, "Gradient editor with multiple stops");
    const fresh = await postIdea(s.token, "Countdown timer overlay widget");
    // The oldest idea is backdated two days and gets three votes; the middle one gets one.
    await env.DB.prepare("UPDATE ideas SET created_at = created_at - ? WHERE id = ?").bind(2 * 86_400_000, old.id).run();
    for (const v of voters) await api(v.token, "POST", `/api/ideas/${old.id}/vote`);
    await api(voters[0]!.token, "POST", `/api/ideas/${mid.id}/vote`);

    const ids = async (query: string) =>
      (await json<{ ideas: IdeaJson[] }>(await api(null, "GET", `/api/ideas?${query}`))).ideas
        .map((i) => i.id)
        .filter((id) => [old.id, mid.id, fresh.id].includes(id));
    expect(await ids("sort=new&limit=100")).toEqual([fresh.id, mid.id, old.id]);
    expect(await ids("sort=top&limit=100")).toEqual([old.id, mid.id, fresh.id]);
    // Hot: three votes two days old decay below one vote an instant old.
    expect(await ids("sort=hot&limit=100")).toEqual([mid.id, fresh.id, old.id]);

    const page1 = await json<{ ideas: IdeaJson[]; nextOffset: number | null; limit: number }>(
      await api(null, "GET", "/api/ideas?sort=new&limit=2"),
    );
    expect(page1.ideas).toHaveLength(2);
    expect(page1.nextOffset).toBe(2);
    const page2 = await json<{ ideas: IdeaJson[] }>(await api(null, "GET", "/api/ideas?sort=new&limit=2&offset=2"));
    expect(page2.ideas[0]?.id).not.toBe(page1.ideas[0]?.id);
    const all = await json<{ ideas: IdeaJson[]; nextOffset: number | null }>(await api(null, "GET", "/api/ideas?limit=100"));
    expect(all.nextOffset).toBeNull();
    const open = await json<{ ideas: IdeaJson[] }>(await api(null, "GET", "/api/ideas?status=open&limit=100"));
    expect(open.ideas.every((i) => i.status === "open")).toBe(true);
    expect((await json<{ ideas: IdeaJson[] }>(await api(null, "GET", "/api/ideas?status=shipped"))).ideas).toEqual([]);
  });

  it("rejects unknown sort, status, group and paging values with 400 { error }", async () => {
    for (const query of ["sort=best", "status=done", "group=nope", "limit=0", "limit=101", "offset=-1", "limit=ten", "colour=red"]) {
      const res = await api(null, "GET", `/api/ideas?${query}`);
      expect(res.status, query).toBe(400);
      const body = await json<{ error: string }>(res);
      expect(typeof body.error, query).toBe("string");
    }
  });

  it("rejects malformed JSON, missing fields and wrong types with 400 and writes nothing", async () => {
    const s = await signIn("badinput");
    const before = await countRows("ideas");
    const cases: unknown[] = ["{not json", { body: "no title" }, { title: "no body" }, { title: 5, body: "x" }, { title: "t", body: "b", force: "yes" }, { title: "  ", body: "b" }, { title: "t", body: "b", group: "Not A Slug" }];
    for (const body of cases) {
      const res = await api(s.token, "POST", "/api/ideas", body, typeof body === "string" ? { "Content-Type": "application/json" } : {});
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
    expect(await countRows("ideas")).toBe(before);
    expect(await countRows("ideas_fts")).toBe(before);
  });

  it("needs a caller to write: 401 unauthorized: without credentials", async () => {
    const res = await api(null, "POST", "/api/ideas", { title: "Anonymous idea", body: "from nobody" });
    expect(res.status).toBe(401);
    expect((await json<{ error: string }>(res)).error).toMatch(/^unauthorized: /);
  });
});

describe("duplicates", () => {
  it("refuses a reworded duplicate with 409 { error, exists, idea } and posts it with force: true", async () => {
    const s = await signIn("dupe");
    const original = await postIdea(s.token, "Automatic subtitles for videos", "Transcribe speech and add subtitles.");
    const before = await countRows("ideas");
    for (const title of ["Auto-generate captions for video clips", "automatic subtitels for videos", "Videos: subtitles, automatic", "Automatic subtitle for video"]) {
      const res = await api(s.token, "POST", "/api/ideas", { title, body: "Same thing." });
      expect(res.status, title).toBe(409);
      const body = await json<{ error: string; exists: boolean; idea: IdeaJson }>(res);
      expect(body.exists).toBe(true);
      expect(typeof body.error).toBe("string");
      expect(body.idea.id).toBe(original.id);
    }
    expect(await countRows("ideas")).toBe(before);
    const forced = await api(s.token, "POST", "/api/ideas", { title: "Auto-generate captions for video clips", body: "Really.", force: true });
    expect(forced.status).toBe(201);
    const different = await api(s.token, "POST", "/api/ideas", { title: "Translate subtitles into other languages", body: "Another idea." });
    expect(different.status).toBe(201);
  });

  it("checks a draft: similar ideas with scores, best first; nothing for an unrelated text", async () => {
    const s = await signIn("checker");
    const a = await postIdea(s.token, "Keyboard shortcuts for the timeline", "Hotkeys for cut, split and zoom.");
    await postIdea(s.token, "Timeline markers for music beats", "Drop markers on the beat.");
    const res = await api(null, "POST", "/api/ideas/check", { title: "timeline keyboard shortcut", body: "" });
    expect(res.status).toBe(200);
    const body = await json<{ duplicate: boolean; similar: { score: number; idea: IdeaJson }[] }>(res);
    expect(body.duplicate).toBe(true);
    expect(body.similar[0]?.idea.id).toBe(a.id);
    const scores = body.similar.map((x) => x.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    const none = await json<{ duplicate: boolean; similar: unknown[] }>(
      await api(null, "POST", "/api/ideas/check", { title: "Quantum entanglement of llamas" }),
    );
    expect(none).toEqual({ duplicate: false, similar: [] });
    expect((await api(null, "POST", "/api/ideas/check", { body: "no title" })).status).toBe(400);
    expect((await api(null, "POST", "/api/ideas/check", "{oops", { "Content-Type": "application/json" })).status).toBe(400);
  });
});

describe("votes", () => {
  it("toggles the caller's vote on and off, and another caller's vote does not toggle yours", async () => {
    const alice = await signIn("voter-alice");
    const bob = await signIn("voter-bob");
    const idea = await postIdea(alice.token, "Slow motion ramps for clips");
    const on = await json<{ voted: boolean; votes: number }>(await api(alice.token, "POST", `/api/ideas/${idea.id}/vote`));
    expect(on).toMatchObject({ voted: true, votes: 1 });
    const bobOn = await json<{ voted: boolean; votes: number }>(await api(bob.token, "POST", `/api/ideas/${idea.id}/vote`));
    expect(bobOn).toMatchObject({ voted: true, votes: 2 });
    // Alice still counts as having voted.
    const seenByAlice = await json<{ idea: IdeaJson }>(await api(alice.token, "GET", `/api/ideas/${idea.id}`));
    expect(seenByAlice.idea).toMatchObject({ voted: true, votes: 2 });
    const bobOff = await json<{ voted: boolean; votes: number }>(await api(bob.token, "POST", `/api/ideas/${idea.id}/vote`));
    expect(bobOff).toMatchObject({ voted: false, votes: 1 });
    const again = await json<{ idea: IdeaJson }>(await api(alice.token, "GET", `/api/ideas/${idea.id}`));
    expect(again.idea).toMatchObject({ voted: true, votes: 1 });
    const anon = await json<{ idea: IdeaJson }>(await api(null, "GET", `/api/ideas/${idea.id}`));
    expect(anon.idea.voted).toBe(false);
    const off = await json<{ voted: boolean; votes: number }>(await api(alice.token, "POST", `/api/ideas/${idea.id}/vote`));
    expect(off).toMatchObject({ voted: false, votes: 0 });
    expect((await api(alice.token, "POST", "/api/ideas/987654/vote")).status).toBe(404);
  });

  it("a user and their bot share one vote, and the bot's vote never takes the owner's back", async () => {
    const owner = await signIn("bot-owner-voter");
    const { key } = await issueBot(owner.token, "voter bot");
    const idea = await postIdea(owner.token, "Karaoke style word highlighting");
    await api(owner.token, "POST", `/api/ideas/${idea.id}/vote`);
    const seenByBot = await json<{ idea: IdeaJson }>(await api(key, "GET", `/api/ideas/${idea.id}`));
    expect(seenByBot.idea).toMatchObject({ voted: true, votes: 1 });
    // What the seed tells a bot to do after a 409, twice: the owner's vote stays, counted once.
    for (let i = 0; i < 2; i++) {
      expect(await json(await api(key, "POST", `/api/ideas/${idea.id}/vote`))).toEqual({ id: idea.id, voted: true, votes: 1 });
    }
    expect((await json<{ idea: IdeaJson }>(await api(owner.token, "GET", `/api/ideas/${idea.id}`))).idea).toMatchObject({ voted: true, votes: 1 });
    // The person takes it back with their own token; the bot's next vote casts it again, for the person.
    expect(await json(await api(owner.token, "POST", `/api/ideas/${idea.id}/vote`))).toMatchObject({ voted: false, votes: 0 });
    expect(await json(await api(key, "POST", `/api/ideas/${idea.id}/vote`))).toMatchObject({ voted: true, votes: 1 });
    expect((await json<{ idea: IdeaJson }>(await api(owner.token, "GET", `/api/ideas/${idea.id}`))).idea).toMatchObject({ voted: true, votes: 1 });
  });
});

describe("enrichments and comments", () => {
  it("adds enrichments of each kind and comments, counts them, and toggles enrichment votes", async () => {
    const s = await signIn("enricher");
    const other = await signIn("enricher-2");
    const idea = await postIdea(s.token, "Scene graph inspector panel");
    const ids: number[] = [];
    for (const kind of ["note", "use_case", "angle", "constraint"]) {
      const res = await api(s.token, "POST", `/api/ideas/${idea.id}/enrich`, { kind, body: `A ${kind}.` });
      expect(res.status).toBe(201);
      const { enrichment } = await json<{ enrichment: { id: number; kind: string; votes: number; voted: boolean; isBot: boolean } }>(res);
      expect(enrichment).toMatchObject({ kind, votes: 0, voted: false, isBot: false });
      ids.push(enrichment.id);
    }
    expect((await api(s.token, "POST", `/api/ideas/${idea.id}/enrich`, { kind: "rant", body: "x" })).status).toBe(400);
    expect((await api(s.token, "POST", `/api/ideas/${idea.id}/enrich`, { kind: "note" })).status).toBe(400);
    expect((await api(s.token, "POST", "/api/ideas/999999/enrich", { kind: "note", body: "x" })).status).toBe(404);
    const comment = await api(other.token, "POST", `/api/ideas/${idea.id}/comments`, { body: "Love it", name: "Sam" });
    expect(comment.status).toBe(201);
    expect((await json<{ comment: { body: string; name: string } }>(comment)).comment).toMatchObject({ body: "Love it", name: "Sam" });
    expect((await api(other.token, "POST", `/api/ideas/${idea.id}/comments`, { body: 42 })).status).toBe(400);

    const target = ids[2]!;
    const v1 = await json<{ voted: boolean; votes: number }>(await api(other.token, "POST", `/api/enrichments/${target}/vote`));
    expect(v1).toMatchObject({ voted: true, votes: 1 });
    const v2 = await json<{ voted: boolean; votes: number }>(await api(s.token, "POST", `/api/enrichments/${target}/vote`));
    expect(v2).toMatchObject({ voted: true, votes: 2 });
    const v3 = await json<{ voted: boolean; votes: number }>(await api(other.token, "POST", `/api/enrichments/${target}/vote`));
    expect(v3).toMatchObject({ voted: false, votes: 1 });
    expect((await api(s.token, "POST", "/api/enrichments/999999/vote")).status).toBe(404);

    const detail = await json<{ idea: IdeaJson; enrichments: { id: number; votes: number; voted: boolean }[]; comments: { body: string }[] }>(
      await api(s.token, "GET", `/api/ideas/${idea.id}`),
    );
    expect(detail.idea).toMatchObject({ enrichments: 4, comments: 1 });
    expect(detail.enrichments).toHaveLength(4);
    expect(detail.enrichments[0]).toMatchObject({ id: target, votes: 1, voted: true });
    expect(detail.comments.map((c) => c.body)).toEqual(["Love it"]);
    const listed = (await json<{ ideas: IdeaJson[] }>(await api(null, "GET", "/api/ideas?sort=new&limit=100"))).ideas.find((i) => i.id === idea.id);
    expect(listed).toMatchObject({ enrichments: 4, comments: 1 });
  });
});
