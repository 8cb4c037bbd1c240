// Idea-board writes in one round trip to D1's primary (worker/ideas/board-batch.ts): the credential check, the
// rate-limit spend, the write's checks (guards, worker/db/sql-guard.ts) and the write itself travel as one batch.
// Counted with the traced D1 binding (traced-worker.ts), as the bench does. And what the one batch must keep: a
// write refused by the limit or by a check changes nothing, the caller's budget included.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { setEnv } from "./idea-helpers.ts";
import { bearer, send, signIn, type Sent } from "./traced-worker.ts";

// D1's primary modelled 40 ms away and a replica 2 ms: a duplicate check reads the replica while the credential
// check is still on its way to the primary, and the insert follows it there (one primary trip in the real world).
const FAR = { primaryMs: 40, replicaMs: 2 };

const post = (token: string, path: string, value?: unknown, method = "POST") =>
  send(path, value === undefined ? { method, headers: bearer(token) } : { method, headers: bearer(token, { "Content-Type": "application/json" }), body: JSON.stringify(value) }, FAR);

const created = <T>(sent: Sent & { body: string }, status = 201): T => {
  expect(sent.res.status, sent.body).toBe(status);
  return JSON.parse(sent.body) as T;
};

describe("idea-board writes", () => {
  it("cost one round trip to the primary each once the caller is cached, refusals included", async () => {
    const person = await signIn("Board Trips Bea");
    const other = await signIn("Board Trips Otto");
    const restore = setEnv({ ADMIN_USER_IDS: person.userId, IDEA_WRITE_LIMIT: "1000" });
    try {
      await send("/api/me", { headers: bearer(person.token) }); // caches the callers
      await send("/api/me", { headers: bearer(other.token) });
      const { bot, key } = created<{ bot: { id: string }; key: string }>(await post(person.token, "/api/bots", { name: "trip bot" }));
      await send("/api/me", { headers: bearer(key) });
      const spare = created<{ bot: { id: string } }>(await post(person.token, "/api/bots", { name: "spare bot" }));
      const { idea } = created<{ idea: { id: number } }>(await post(person.token, "/api/ideas", { title: "Round trips on the idea board", body: "Count them." }));
      const { enrichment } = created<{ enrichment: { id: number } }>(await post(other.token, `/api/ideas/${idea.id}/enrich`, { kind: "note", body: "A note." }));
      const { comment } = created<{ comment: { id: number } }>(await post(other.token, `/api/ideas/${idea.id}/comments`, { body: "To edit." }));
      const { comment: gone } = created<{ comment: { id: number } }>(await post(other.token, `/api/ideas/${idea.id}/comments`, { body: "To delete." }));
      const { idea: doomed } = created<{ idea: { id: number } }>(await post(other.token, "/api/ideas", { title: "A short-lived idea about fonts", body: "Gone soon." }));

      const writes: [string, number, () => Promise<Sent & { body: string }>][] = [
        ["POST /api/ideas", 201, () => post(other.token, "/api/ideas", { title: "Timeline markers for beats", body: "Snap to music." })],
        ["POST /api/ideas (force)", 201, () => post(other.token, "/api/ideas", { title: "Timeline markers for beats", body: "Snap to music.", force: true })],
        ["POST /api/ideas (duplicate: 409)", 409, () => post(other.token, "/api/ideas", { title: "Round trips on the idea board", body: "Count them." })],
        ["POST /api/ideas (unknown group: 400)", 400, () => post(other.token, "/api/ideas", { title: "Filed nowhere", body: "x", group: "missing", force: true })],
        ["POST vote (on)", 200, () => post(other.token, `/api/ideas/${idea.id}/vote`)],
        ["POST vote (off)", 200, () => post(other.token, `/api/ideas/${idea.id}/vote`)],
        ["POST vote by a bot", 200, () => post(key, `/api/ideas/${idea.id}/vote`)],
        ["POST vote (no such idea: 404)", 404, () => post(other.token, "/api/ideas/999999/vote")],
        ["POST enrich", 201, () => post(other.token, `/api/ideas/${idea.id}/enrich`, { kind: "angle", body: "Another angle." })],
        ["POST enrich (no such idea: 404)", 404, () => post(other.token, "/api/ideas/999999/enrich", { kind: "angle", body: "x" })],
        ["POST enrichment vote", 200, () => post(person.token, `/api/enrichments/${enrichment.id}/vote`)],
        ["POST comment", 201, () => post(person.token, `/api/ideas/${idea.id}/comments`, { body: "Agreed." })],
        ["PATCH idea (author)", 200, () => post(person.token, `/api/ideas/${idea.id}`, { body: "Count every one." }, "PATCH")],
        ["PATCH idea (not the author: 403)", 403, () => post(other.token, `/api/ideas/${idea.id}`, { title: "Hijacked" }, "PATCH")],
        ["PATCH idea status (admin)", 200, () => post(person.token, `/api/ideas/${idea.id}`, { status: "building" }, "PATCH")],
        ["PATCH comment", 200, () => post(other.token, `/api/comments/${comment.id}`, { body: "Edited." }, "PATCH")],
        ["DELETE comment", 200, () => post(other.token, `/api/comments/${gone.id}`, undefined, "DELETE")],
        ["DELETE idea", 200, () => post(other.token, `/api/ideas/${doomed.id}`, undefined, "DELETE")],
        ["POST /api/groups (admin)", 201, () => post(person.token, "/api/groups", { slug: "trips", name: "Trips" })],
        ["POST /api/research (bot)", 201, () => post(key, "/api/research", { slug: "trip-notes", kind: "notes", name: "Trip notes", body_md: "x", lines: [] })],
        ["PUT /api/research (owner)", 200, () => post(person.token, "/api/research/trip-notes", { kind: "notes", name: "Trip notes", body_md: "y", lines: [] }, "PUT")],
        ["PUT /api/research (not the owner: 403)", 403, () => post(other.token, "/api/research/trip-notes", { kind: "notes", name: "Mine", body_md: "z", lines: [] }, "PUT")],
        ["DELETE /api/research", 200, () => post(person.token, "/api/research/trip-notes", undefined, "DELETE")],
        ["POST /api/bots", 201, () => post(other.token, "/api/bots", { name: "other bot" })],
        ["DELETE /api/bots/:id", 200, () => post(person.token, `/api/bots/${spare.bot.id}`, undefined, "DELETE")],
      ];
      const over: [string, number, string[]][] = [];
      for (const [name, status, call] of writes) {
        const { res, body, trips, log } = await call();
        expect(res.status, `${name}: ${body}`).toBe(status);
        if (trips > 1) over.push([name, trips, log]);
      }
      expect(over).toEqual([]);
      expect(bot.id).toBeTruthy();
    } finally {
      restore();
    }
    // About 35 requests, each waiting out its modelled 40 ms to the primary: over vitest's 5 s on a loaded machine.
  }, 30_000);

  it("refused by the rate limit change nothing; refused by a check, they spend nothing either", async () => {
    const voter = await signIn("Budget Bo");
    const author = await signIn("Budget Author");
    const restore = setEnv({ IDEA_WRITE_LIMIT: "3", IDEA_WRITE_WINDOW_SECONDS: "600" });
    try {
      const { idea } = created<{ idea: { id: number } }>(await post(author.token, "/api/ideas", { title: "Budgets for idea-board writers", body: "Three each." }));
      expect(created<{ voted: boolean; votes: number }>(await post(voter.token, `/api/ideas/${idea.id}/vote`), 200)).toMatchObject({ voted: true, votes: 1 });
      expect((await post(voter.token, `/api/ideas/${idea.id}/comments`, { body: "second" })).res.status).toBe(201);
      expect((await post(voter.token, `/api/ideas/${idea.id}/comments`, { body: "third" })).res.status).toBe(201);

      // Over the limit: the toggle (an insert or a delete, a recount and a read in one batch) is rolled back whole.
      const limited = await post(voter.token, `/api/ideas/${idea.id}/vote`);
      expect(limited.res.status).toBe(429);
      expect(limited.res.headers.get("Retry-After")).toMatch(/^\d+$/);
      const stored = await env.DB.prepare("SELECT votes, comment_count AS comments FROM ideas WHERE id = ?").bind(idea.id).first();
      expect(stored).toEqual({ votes: 1, comments: 2 });
      const vote = await env.DB.prepare("SELECT count(*) AS n FROM idea_votes WHERE idea_id = ?").bind(idea.id).first<{ n: number }>();
      expect(vote?.n).toBe(1);
      // Refused writes are not counted past the limit: the counter stays at the limit.
      const counter = await env.DB.prepare("SELECT count FROM rate_limits WHERE caller = ?").bind(`user:${voter.userId}`).first<{ count: number }>();
      expect(counter?.count).toBe(3);
      // A write refused by its checks changes nothing, its spend included: two refusals, then two writes fit.
      const other = await signIn("Budget Cy");
      setEnv({ IDEA_WRITE_LIMIT: "2" });
      expect((await post(other.token, "/api/ideas/999999/comments", { body: "nowhere" })).res.status).toBe(404);
      expect((await post(other.token, `/api/ideas/${idea.id}`, { title: "Not mine" }, "PATCH")).res.status).toBe(403);
      expect((await post(other.token, `/api/ideas/${idea.id}/vote`)).res.status).toBe(200);
      expect((await post(other.token, `/api/ideas/${idea.id}/vote`)).res.status).toBe(200);
      expect((await post(other.token, `/api/ideas/${idea.id}/vote`)).res.status).toBe(429);
    } finally {
      restore();
    }
  }, 30_000);
});
