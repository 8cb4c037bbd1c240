// Reads that a D1 replica may serve, and reading one's own writes: the X-D1-Bookmark contract of the idea board,
// research, metrics and stats (worker/db/read-session.ts). workerd has no replicas, so read-your-writes holds here
// anyway; what these tests pin down is the contract a client relies on: every answer carries a bookmark, a write's
// bookmark sent back reaches the read's session and the read sees the write, a malformed one is ignored. Also the
// queries folded into one batch: the hot page of a board larger than the pool, `voted` and `mine` as columns.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hotScore } from "../../core/ideas/hot-rank.ts";
import { api, BASE, json, signIn } from "./helpers.ts";
import { type IdeaJson, issueBot, postIdea } from "./idea-helpers.ts";

const HEADER = "X-D1-Bookmark";
/** The form of D1's bookmarks (workerd's local D1 answers the same form). */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The bookmark an answer carries, which must be one. */
function bookmarkOf(res: Response): string {
  const value = res.headers.get(HEADER);
  expect(value ?? "(none)", `${res.url} ${res.status}`).toMatch(BOOKMARK);
  return value!;
}

const withBookmark = (bookmark: string) => ({ [HEADER]: bookmark });

describe("X-D1-Bookmark: reading one's own writes", () => {
  it("a write answers a bookmark, and reads sending it back see the write (list, detail, vote, comment, research)", async () => {
    const s = await signIn("bookmark-writer");
    const posted = await api(s.token, "POST", "/api/ideas", { title: "Bookmarked replica reads", body: "Read your own writes." });
    expect(posted.status).toBe(201);
    const afterPost = bookmarkOf(posted);
    const { idea } = await json<{ idea: IdeaJson }>(posted);

    const list = await api(s.token, "GET", "/api/ideas?sort=new&limit=100", undefined, withBookmark(afterPost));
    expect(list.status).toBe(200);
    expect(bookmarkOf(list) >= afterPost).toBe(true);
    const listed = (await json<{ ideas: (IdeaJson & { mine: boolean })[] }>(list)).ideas.find((i) => i.id === idea.id);
    expect(listed).toMatchObject({ title: "Bookmarked replica reads", mine: true, voted: false });

    const vote = await api(s.token, "POST", `/api/ideas/${idea.id}/vote`, undefined, withBookmark(afterPost));
    const afterVote = bookmarkOf(vote);
    expect(afterVote > afterPost).toBe(true);
    const comment = await api(s.token, "POST", `/api/ideas/${idea.id}/comments`, { body: "First!" }, withBookmark(afterVote));
    expect(comment.status).toBe(201);
    const afterComment = bookmarkOf(comment);
    expect(afterComment > afterVote).toBe(true);

    const detail = await api(s.token, "GET", `/api/ideas/${idea.id}`, undefined, withBookmark(afterComment));
    expect(detail.status).toBe(200);
    expect(bookmarkOf(detail) >= afterComment).toBe(true);
    const read = await json<{ idea: IdeaJson & { mine: boolean }; comments: { body: string; mine: boolean }[] }>(detail);
    expect(read.idea).toMatchObject({ votes: 1, voted: true, comments: 1, mine: true });
    expect(read.comments).toEqual([expect.objectContaining({ body: "First!", mine: true })]);

    // Research: a bot creates, the bookmark it gets back reads the record.
    const { key } = await issueBot(s.token, "Bookmark bot");
    const created = await api(key, "POST", "/api/research", { slug: "bookmarked-record", name: "Bookmarked", body_md: "Hi" });
    expect(created.status).toBe(201);
    const record = await api(null, "GET", "/api/research/bookmarked-record", undefined, withBookmark(bookmarkOf(created)));
    expect(record.status).toBe(200);
    expect(await json(record)).toMatchObject({ slug: "bookmarked-record", author: "Bookmark bot" });
  });

  it("the bookmark sent back is where the read's session starts", async () => {
    // Ahead of anything written here: workerd's local D1 keeps the newest bookmark a session has seen, so the answer
    // carries this one only if the request's bookmark reached withSession (ignored, the answer would be older).
    const ahead = "7fffffff-00000000-00000000-00000000000000000000000000000000";
    for (const path of ["/api/ideas", "/api/stats", "/api/research", "/api/metrics", "/api/groups"]) {
      const res = await api(null, "GET", path, undefined, withBookmark(ahead));
      expect(res.status, path).toBe(200);
      expect(res.headers.get(HEADER), path).toBe(ahead);
    }
  });

  it("a malformed bookmark is ignored: the read is answered (not a 500) with a bookmark of the database's own", async () => {
    const malformed = [
      "abc",
      "first-primary",
      "first-unconstrained",
      "00000000_0000000b",
      "ZZZZZZZZ-00000000-00000000-00000000000000000000000000000000",
      "' OR 1=1 --",
      `00000000-${"0".repeat(200)}`,
      "0-0-0-0-0-0-0-0-0-0",
    ];
    for (const bad of malformed) {
      const res = await api(null, "GET", "/api/ideas", undefined, withBookmark(bad));
      expect(res.status, bad).toBe(200);
      expect(bookmarkOf(res), bad).not.toBe(bad);
    }
  });

  it("every converted route answers the header (errors too), and CORS lets a browser client send and read it", async () => {
    const s = await signIn("bookmark-routes");
    const idea = await postIdea(s.token, "Headers on every board answer");
    const enrich = await json<{ enrichment: { id: number } }>(await api(s.token, "POST", `/api/ideas/${idea.id}/enrich`, { kind: "note", body: "A note." }));
    const comment = await json<{ comment: { id: number } }>(await api(s.token, "POST", `/api/ideas/${idea.id}/comments`, { body: "A comment." }));
    const calls: [string, Promise<Response>, number][] = [
      ["list", api(null, "GET", "/api/ideas"), 200],
      ["list hot by group that does not exist", api(null, "GET", "/api/ideas?group=no-such-group"), 400],
      ["detail", api(s.token, "GET", `/api/ideas/${idea.id}`), 200],
      ["unknown idea", api(null, "GET", "/api/ideas/999999"), 404],
      ["check", api(null, "POST", "/api/ideas/check", { title: "Headers on every board answer" }), 200],
      ["vote", api(s.token, "POST", `/api/ideas/${idea.id}/vote`), 200],
      ["enrichment vote", api(s.token, "POST", `/api/enrichments/${enrich.enrichment.id}/vote`), 200],
      ["comment edit", api(s.token, "PATCH", `/api/comments/${comment.comment.id}`, { body: "Edited." }), 200],
      ["idea edit", api(s.token, "PATCH", `/api/ideas/${idea.id}`, { title: "Headers on every board answer, edited" }), 200],
      ["groups", api(null, "GET", "/api/groups"), 200],
      ["metrics", api(null, "GET", "/api/metrics"), 200],
      ["research list", api(null, "GET", "/api/research"), 200],
      ["unknown record", api(null, "GET", "/api/research/no-such-record"), 404],
      ["stats", api(null, "GET", "/api/stats"), 200],
    ];
    for (const [name, call, status] of calls) {
      const res = await call;
      expect(res.status, name).toBe(status);
      bookmarkOf(res);
    }
    // A page view (once the visitor cookie comes back: before that no query runs) answers the bookmark of its write.
    const first = await api(null, "POST", "/api/stats/view?page=/ideas");
    const cookie = (first.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    const before = await json<{ pageViews: number }>(await api(null, "GET", "/api/stats"));
    const viewed = await api(null, "POST", "/api/stats/view?page=/ideas", undefined, { Cookie: cookie });
    expect(await json(viewed)).toEqual({ recorded: true });
    const after = await api(null, "GET", "/api/stats", undefined, withBookmark(bookmarkOf(viewed)));
    expect((await json<{ pageViews: number }>(after)).pageViews).toBe(before.pageViews + 1);

    // A request refused before any query keeps the client's bookmark rather than answering none.
    const sent = "00000000-00000001-00000000-00000000000000000000000000000000";
    const refused = await api(null, "GET", "/api/ideas?sort=sideways", undefined, withBookmark(sent));
    expect(refused.status).toBe(400);
    expect(refused.headers.get(HEADER)).toBe(sent);

    const cross = await SELF.fetch(`${BASE}/api/ideas`, { headers: { Origin: "https://agent.example" } });
    expect(cross.headers.get("Access-Control-Expose-Headers")?.split(/,\s*/)).toContain(HEADER);
    const preflight = await SELF.fetch(`${BASE}/api/ideas`, {
      method: "OPTIONS",
      headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-d1-bookmark" },
    });
    expect(preflight.headers.get("Access-Control-Allow-Headers")?.toLowerCase().split(/,\s*/)).toContain("x-d1-bookmark");
  });
});

describe("the board's reads in one batch", () => {
  it("hot order on a board larger than the pool equals scoring every idea, with voted and mine per caller", async () => {
    const s = await signIn("big-board");
    const other = await signIn("big-board-other");
    const now = Date.now();
    // 1,100 ideas, each its own age (hours) and a spread of votes, some by this caller, some voted by them.
    const inserts = Array.from({ length: 1100 }, (_, i) =>
      env.DB.prepare("INSERT INTO ideas (title, body, name, author, is_bot, votes, created_at) VALUES (?, ?, ?, ?, 0, ?, ?)").bind(
        `Board idea ${i}`,
        "Seeded.",
        "seed",
        i % 10 === 0 ? `user:${s.userId}` : `user:${other.userId}`,
        (i * 17) % 53,
        now - (i + 1) * 3_600_000 - 60_000,
      ),
    );
    await env.DB.batch(inserts);
    const all = (await env.DB.prepare("SELECT id, votes, created_at AS at, author FROM ideas").all<{ id: number; votes: number; at: number; author: string }>()).results;
    const votedIds = new Set(all.filter((_, i) => i % 7 === 3).map((r) => r.id));
    await env.DB.batch([...votedIds].map((id) => env.DB.prepare("INSERT INTO idea_votes (idea_id, voter, cast_by, created_at) VALUES (?, ?, ?, ?)").bind(id, `user:${s.userId}`, `user:${s.userId}`, now)));
    const at = Date.now();
    const expected = [...all].sort((a, b) => hotScore(b.votes, (at - b.at) / 3_600_000) - hotScore(a.votes, (at - a.at) / 3_600_000) || b.id - a.id);

    for (const offset of [0, 120, 480]) {
      const res = await api(s.token, "GET", `/api/ideas?sort=hot&limit=20&offset=${offset}`);
      expect(res.status).toBe(200);
      const page = (await json<{ ideas: (IdeaJson & { mine: boolean })[] }>(res)).ideas;
      const want = expected.slice(offset, offset + 20);
      expect(page.map((i) => i.id), `offset ${offset}`).toEqual(want.map((r) => r.id));
      expect(page.map((i) => i.voted)).toEqual(want.map((r) => votedIds.has(r.id)));
      expect(page.map((i) => i.mine)).toEqual(want.map((r) => r.author === `user:${s.userId}`));
    }
    // Anonymous: nothing voted, nothing mine.
    const anon = (await json<{ ideas: (IdeaJson & { mine: boolean })[] }>(await api(null, "GET", "/api/ideas?sort=hot&limit=50"))).ideas;
    expect(anon.some((i) => i.voted || i.mine)).toBe(false);
  });
});
