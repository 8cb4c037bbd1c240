// Editing and deleting one's own ideas and comments (PATCH/DELETE /api/ideas/:id, PATCH/DELETE /api/comments/:id):
// only the author edits, the author or an admin deletes, a refused request changes nothing, an edited idea is
// found by the duplicate check under its new words, and lists say which records are the caller's (`mine`).
import { describe, expect, it } from "vitest";
import { api, json, signIn } from "./helpers.ts";
import { countRows, type IdeaJson, issueBot, postIdea, setEnv } from "./idea-helpers.ts";

type Mine = IdeaJson & { mine: boolean };
type CommentJson = { id: number; body: string; mine: boolean };

describe("own ideas", () => {
  it("lets the author edit title and body, re-indexed for the duplicate check; others get 403 and change nothing", async () => {
    const author = await signIn("own-author");
    const other = await signIn("own-other");
    const idea = await postIdea(author.token, "Kinetic typography lower thirds", "Animated name captions.");
    const refused = await api(other.token, "PATCH", `/api/ideas/${idea.id}`, { title: "Hijacked title" });
    expect(refused.status).toBe(403);
    expect((await json<{ error: string }>(refused)).error).toBe("only the author can edit an idea");
    const edited = await api(author.token, "PATCH", `/api/ideas/${idea.id}`, { title: "Volumetric fog flythrough", body: "A slow camera through fog." });
    expect(edited.status).toBe(200);
    expect((await json<{ idea: IdeaJson }>(edited)).idea).toMatchObject({ title: "Volumetric fog flythrough", body: "A slow camera through fog." });
    // A non-admin author still cannot move the status, and nothing of that request is applied.
    expect((await api(author.token, "PATCH", `/api/ideas/${idea.id}`, { title: "Sneaky", status: "building" })).status).toBe(403);
    const read = await json<{ idea: Mine }>(await api(author.token, "GET", `/api/ideas/${idea.id}`));
    expect(read.idea).toMatchObject({ title: "Volumetric fog flythrough", status: "open", mine: true });
    expect((await json<{ idea: Mine }>(await api(other.token, "GET", `/api/ideas/${idea.id}`))).idea.mine).toBe(false);
    expect((await json<{ idea: Mine }>(await api(null, "GET", `/api/ideas/${idea.id}`))).idea.mine).toBe(false);
    const check = await json<{ similar: { idea: IdeaJson }[] }>(await api(null, "POST", "/api/ideas/check", { title: "fog flythrough", body: "camera through volumetric fog" }));
    expect(check.similar.map((s) => s.idea.id)).toContain(idea.id);
    expect((await api(author.token, "PATCH", `/api/ideas/${idea.id}`, { title: "" })).status).toBe(400);
  });

  it("deletes an idea with its comments, enrichments and votes, by the author or an admin only", async () => {
    const author = await signIn("del-author");
    const admin = await signIn("del-admin");
    const other = await signIn("del-other");
    const restore = setEnv({ ADMIN_USER_IDS: admin.userId });
    try {
      const one = await postIdea(author.token, "Split screen comparison wipes", "Before and after.");
      await api(other.token, "POST", `/api/ideas/${one.id}/comments`, { body: "yes" });
      await api(other.token, "POST", `/api/ideas/${one.id}/vote`);
      await api(other.token, "POST", `/api/ideas/${one.id}/enrich`, { kind: "note", body: "n" });
      const before = await countRows("ideas");
      expect((await api(other.token, "DELETE", `/api/ideas/${one.id}`)).status).toBe(403);
      expect(await countRows("ideas")).toBe(before);
      expect((await api(author.token, "DELETE", `/api/ideas/${one.id}`)).status).toBe(200);
      expect((await api(null, "GET", `/api/ideas/${one.id}`)).status).toBe(404);
      expect((await api(author.token, "DELETE", `/api/ideas/${one.id}`)).status).toBe(404);
      const orphans = await Promise.all(["idea_comments", "idea_votes", "enrichments"].map(countRows));
      const two = await postIdea(author.token, "Procedural starfield backgrounds", "Stars.");
      expect((await api(admin.token, "DELETE", `/api/ideas/${two.id}`)).status).toBe(200);
      expect(await Promise.all(["idea_comments", "idea_votes", "enrichments"].map(countRows))).toEqual(orphans);
      expect((await api(admin.token, "DELETE", "/api/ideas/abc")).status).toBe(404);
    } finally {
      restore();
    }
  });

  it("marks the caller's own ideas in the list and says whether the caller is an admin", async () => {
    const me = await signIn("list-mine");
    const admin = await signIn("list-admin");
    const mine = await postIdea(me.token, "Looping cinemagraph exports", "Loops.");
    const restore = setEnv({ ADMIN_USER_IDS: admin.userId });
    try {
      const list = await json<{ ideas: Mine[]; admin: boolean }>(await api(me.token, "GET", "/api/ideas?sort=new&limit=100"));
      expect(list.admin).toBe(false);
      expect(list.ideas.find((i) => i.id === mine.id)?.mine).toBe(true);
      expect(list.ideas.filter((i) => i.mine).map((i) => i.id)).toEqual([mine.id]);
      expect((await json<{ admin: boolean }>(await api(admin.token, "GET", "/api/ideas"))).admin).toBe(true);
    } finally {
      restore();
    }
  });
});

describe("own comments", () => {
  it("lets the author edit; the author or an admin delete, with the idea's count kept right", async () => {
    const author = await signIn("c-author");
    const other = await signIn("c-other");
    const admin = await signIn("c-admin");
    const restore = setEnv({ ADMIN_USER_IDS: admin.userId });
    try {
      const idea = await postIdea(other.token, "Audio reactive waveform bars", "Bars.");
      const c1 = (await json<{ comment: CommentJson }>(await api(author.token, "POST", `/api/ideas/${idea.id}/comments`, { body: "first" }))).comment;
      const c2 = (await json<{ comment: CommentJson }>(await api(author.token, "POST", `/api/ideas/${idea.id}/comments`, { body: "second" }))).comment;
      expect((await api(other.token, "PATCH", `/api/comments/${c1.id}`, { body: "forged" })).status).toBe(403);
      expect((await api(admin.token, "PATCH", `/api/comments/${c1.id}`, { body: "forged" })).status).toBe(403);
      expect((await api(author.token, "PATCH", `/api/comments/${c1.id}`, { body: "" })).status).toBe(400);
      expect((await api(author.token, "PATCH", `/api/comments/${c1.id}`, { body: "x", extra: 1 })).status).toBe(400);
      const edited = await api(author.token, "PATCH", `/api/comments/${c1.id}`, { body: "first, **edited**" });
      expect((await json<{ comment: CommentJson }>(edited)).comment.body).toBe("first, **edited**");
      const detail = await json<{ idea: IdeaJson; comments: CommentJson[] }>(await api(author.token, "GET", `/api/ideas/${idea.id}`));
      expect(detail.comments.map((c) => [c.body, c.mine])).toEqual([["first, **edited**", true], ["second", true]]);
      expect(detail.idea.comments).toBe(2);
      expect((await api(other.token, "DELETE", `/api/comments/${c1.id}`)).status).toBe(403);
      expect((await api(author.token, "DELETE", `/api/comments/${c1.id}`)).status).toBe(200);
      expect((await api(admin.token, "DELETE", `/api/comments/${c2.id}`)).status).toBe(200);
      expect((await api(admin.token, "DELETE", `/api/comments/${c2.id}`)).status).toBe(404);
      const after = await json<{ idea: IdeaJson; comments: CommentJson[] }>(await api(null, "GET", `/api/ideas/${idea.id}`));
      expect(after.comments).toEqual([]);
      expect(after.idea.comments).toBe(0);
      // A bot's comment is the bot's: its owner's personal token is another author.
      const { key } = await issueBot(author.token, "commenter");
      const byBot = (await json<{ comment: CommentJson }>(await api(key, "POST", `/api/ideas/${idea.id}/comments`, { body: "beep" }))).comment;
      expect((await api(author.token, "PATCH", `/api/comments/${byBot.id}`, { body: "boop" })).status).toBe(403);
      expect((await api(key, "PATCH", `/api/comments/${byBot.id}`, { body: "boop" })).status).toBe(200);
    } finally {
      restore();
    }
  });
});
