// The idea board as a team uses it (issue 14 point 3), in headless Chromium against the real Worker: paging by
// scrolling with each sort, "1 comment", comments and ideas as sanitized Markdown (tables, links, code; no script,
// no image, no javascript: link), editing and deleting one's own idea and comment, an admin's status, group and
// delete controls, and bot keys created, used, listed and revoked from the page.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, openPage, screenshotDir, shoot, signInAs, startDashboardStudio, type DashboardStudio } from "./harness.ts";
import { preparedDataDir } from "../studio-data.ts";
import { seedDevUser } from "../node/seed-user.ts";

const VARS = { IDEA_WRITE_LIMIT: "1000" };

let env: DashboardStudio;
let browser: Browser;
let shots: string;
let admin: { context: BrowserContext; page: Page; token: string };
let poster: { context: BrowserContext; page: Page; token: string };
let problems: string[] = [];
let myIdea = 0;

async function person(name: string) {
  const { context, page, problems: seen } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  page.on("dialog", (dialog) => void dialog.accept());
  const token = await signInAs(page, env.url, name);
  return { context, page, token, seen };
}

const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

const MARKDOWN = [
  "Numbers from the **pilot**:",
  "",
  "| format | seconds |",
  "|---|---|",
  "| mp4 | 12 |",
  "| gif | 3 |",
  "",
  "See [the spec](https://example.com/spec_(v2)) and run `npm start`.",
  "",
  "```",
  "const x = 1;",
  "```",
  "",
  '<img src="x" onerror="window.__xss = 1"> <script>window.__xss = 2</script> [click](javascript:window.__xss=3)',
].join("\n");

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  // Admins are named by user id (ADMIN_USER_IDS): the admin is written into the data folder first, so the one
  // studio starts naming them.
  const dataDir = await preparedDataDir(mkdtempSync(join(tmpdir(), "studio-ideas-")));
  env = await startDashboardStudio({ renderNode: false, dataDir, vars: { ...VARS, ADMIN_USER_IDS: await seedDevUser(dataDir, "Ada Admin") } });
  const a = await person("Ada Admin");
  const p = await person("Bo Poster");
  admin = a;
  poster = p;
  problems = a.seen;
  (globalThis as { posterProblems?: string[] }).posterProblems = p.seen;
  // 25 ideas, oldest first, so "new" shows idea 25 first; idea 7 gets the most votes.
  for (let i = 1; i <= 25; i++) {
    const res = await apiAs<{ idea: { id: number } }>(env.url, poster.token, "/api/ideas", json({ title: `Board idea number ${i} about topic ${i * 7919}`, body: `Body ${i}.`, force: true }));
    expect(res.status).toBe(201);
    if (i === 25) myIdea = res.body.idea.id;
  }
  const list = await apiAs<{ ideas: { id: number; title: string }[] }>(env.url, poster.token, "/api/ideas?sort=new&limit=100");
  const seventh = list.body.ideas.find((i) => i.title.startsWith("Board idea number 7 "));
  await apiAs(env.url, admin.token, `/api/ideas/${seventh?.id}/vote`, { method: "POST" });
  await apiAs(env.url, poster.token, `/api/ideas/${seventh?.id}/vote`, { method: "POST" });
  expect((await apiAs(env.url, admin.token, "/api/groups", json({ slug: "effects", name: "Effects" }))).status).toBe(201);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.studio.stop();
});

describe("idea board", () => {
  it("pages through every idea by scrolling, in each sort", async () => {
    const { page: visitor, problems: seen } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visitor.goto(`${env.url}/ideas?sort=new`);
    const rows = visitor.getByTestId("idea");
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.first().locator(".idea-title").textContent()).toMatch(/^Board idea number 25 /);
    await visitor.getByTestId("ideas-end").scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count()).toBe(25);
    await visitor.getByText("25 ideas, all shown.").waitFor();
    expect(new Set(await rows.locator(".idea-title").allTextContents()).size).toBe(25);
    await visitor.getByRole("radio", { name: "top" }).click();
    await expect.poll(() => rows.first().locator(".idea-title").textContent()).toMatch(/^Board idea number 7 /);
    await expect.poll(() => rows.count()).toBe(20);
    await visitor.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => rows.count()).toBe(25);
    await shoot(visitor, shots, "ideas-01-paged");
    expect(seen).toEqual([]);
    await visitor.close();
  });

  it("says 1 comment, and shows comments as sanitized Markdown with tables, links and code", async () => {
    const page = poster.page;
    expect((await apiAs(env.url, admin.token, `/api/ideas/${myIdea}/comments`, json({ body: MARKDOWN }))).status).toBe(201);
    await page.goto(`${env.url}/ideas?sort=new`);
    const row = page.getByTestId("idea").filter({ hasText: "Board idea number 25 " });
    await row.getByText("1 comment", { exact: true }).waitFor();
    expect(await page.getByTestId("idea").filter({ hasText: "Board idea number 24 " }).getByText("0 comments", { exact: true }).count()).toBe(1);
    await row.locator(".idea-title").click();
    const comment = page.getByTestId("comment").first();
    const md = comment.getByTestId("markdown");
    await md.waitFor();
    expect(await md.locator("table th").allTextContents()).toEqual(["format", "seconds"]);
    expect(await md.locator("table td").allTextContents()).toEqual(["mp4", "12", "gif", "3"]);
    const link = md.getByRole("link", { name: "the spec" });
    expect(await link.getAttribute("href")).toBe("https://example.com/spec_(v2)");
    expect(await link.getAttribute("rel")).toContain("noopener");
    expect(await md.locator("code").first().textContent()).toBe("npm start");
    expect(await md.locator("pre code").textContent()).toContain("const x = 1;");
    // Raw HTML stays visible text, never markup.
    expect(await md.locator("img, script").count()).toBe(0);
    expect(await md.textContent()).toContain('<img src="x" onerror="window.__xss = 1">');
    expect(await md.getByRole("link", { name: "click" }).count()).toBe(0);
    expect(await md.locator("a[href^='javascript']").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await shoot(page, shots, "ideas-02-markdown-comment");
  });

  it("lets the author edit and delete their own idea's text and comment, and no one else's", async () => {
    const page = poster.page;
    await page.getByRole("button", { name: "Edit idea" }).click();
    await page.getByLabel("Title").fill("Board idea number 25, renamed by its author");
    await page.getByLabel("Description (Markdown)").fill("Now with **bold** words.");
    await page.getByRole("button", { name: "Save idea" }).click();
    await page.getByRole("heading", { name: "Board idea number 25, renamed by its author" }).waitFor();
    await page.getByTestId("idea-detail").locator("strong", { hasText: "bold" }).waitFor();
    // Admin's comment above is not Bo's: no edit or delete on it.
    const admins = page.getByTestId("comment").first();
    expect(await admins.getByRole("button", { name: "Edit" }).count()).toBe(0);
    expect(await admins.getByRole("button", { name: "Delete" }).count()).toBe(0);

    await page.getByRole("textbox", { name: "Comment", exact: true }).fill("My first thought");
    await page.getByRole("button", { name: "Post comment" }).click();
    const mine = page.getByTestId("comment").filter({ hasText: "My first thought" });
    await mine.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit your comment" });
    await form.getByLabel("Your comment").fill("My second thought, with `code`");
    await form.getByRole("button", { name: "Save comment" }).click();
    const edited = page.getByTestId("comment").filter({ hasText: "My second thought" });
    await edited.locator("code", { hasText: "code" }).waitFor();
    await page.getByRole("heading", { name: "2 comments" }).waitFor();
    await edited.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "1 comment" }).waitFor();
    expect(await page.getByTestId("comment").count()).toBe(1);
    // Not an admin: no admin controls, and someone else's idea offers no edit.
    expect(await page.getByTestId("admin-controls").count()).toBe(0);
    const other = await apiAs<{ idea: { id: number } }>(env.url, admin.token, "/api/ideas", json({ title: "Admin's own idea on parallax scrolling", body: "Layers.", force: true }));
    await page.goto(`${env.url}/idea?id=${other.body.idea.id}`);
    await page.getByRole("heading", { name: "Admin's own idea on parallax scrolling" }).waitFor();
    expect(await page.getByRole("button", { name: "Edit idea" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete idea" }).count()).toBe(0);
  });

  it("gives an admin status, group and delete controls", async () => {
    const page = admin.page;
    await page.goto(`${env.url}/idea?id=${myIdea}`);
    const controls = page.getByTestId("admin-controls");
    await controls.waitFor();
    await controls.getByLabel("Status").selectOption("building");
    await page.getByTestId("idea-detail").locator(".badge.status-building").waitFor();
    await controls.getByLabel("Group").selectOption("effects");
    await page.getByTestId("idea-detail").getByText("in effects").waitFor();
    const read = await apiAs<{ idea: { status: string; group: string } }>(env.url, admin.token, `/api/ideas/${myIdea}`);
    expect(read.body.idea).toMatchObject({ status: "building", group: "effects" });
    // One step back undoes a mistake; two steps at once is refused, and the page says why.
    await controls.getByLabel("Status").selectOption("open");
    await page.getByTestId("idea-detail").locator(".badge.status-open").waitFor();
    await controls.getByLabel("Status").selectOption("shipped");
    await page.getByText(/invalid status change: open -> shipped/).waitFor();
    expect((await apiAs<{ idea: { status: string } }>(env.url, admin.token, `/api/ideas/${myIdea}`)).body.idea.status).toBe("open");
    await shoot(page, shots, "ideas-03-admin");
    // The admin deletes the comment and then the idea (not theirs).
    await page.getByTestId("comment").first().getByRole("button", { name: "Delete" }).click();
    await page.getByText("No comments yet.").waitFor();
    await page.getByRole("button", { name: "Delete idea" }).click();
    await page.waitForURL(/\/ideas$/);
    expect((await apiAs(env.url, admin.token, `/api/ideas/${myIdea}`)).status).toBe(404);
  });

  it("creates, lists and revokes bot keys from the board; the key works until revoked", async () => {
    const page = poster.page;
    await page.goto(`${env.url}/ideas`);
    const panel = page.getByTestId("bot-keys");
    await panel.getByLabel("Bot name").fill("Nightly idea bot");
    await panel.getByRole("button", { name: "Create key" }).click();
    const issued = panel.getByTestId("bot-key-issued").locator("[data-key]");
    await issued.waitFor();
    const key = (await issued.getAttribute("data-key")) ?? "";
    expect(key).toMatch(/^stb_/);
    await panel.getByTestId("bot-list").getByText("Nightly idea bot").waitFor();
    const posted = await apiAs<{ idea: { isBot: boolean } }>(env.url, key, "/api/ideas", json({ title: "Bot idea about looping waveforms", body: "From the bot.", force: true }));
    expect(posted.status).toBe(201);
    expect(posted.body.idea.isBot).toBe(true);
    await shoot(page, shots, "ideas-04-bot-keys");
    await panel.getByRole("button", { name: "Revoke Nightly idea bot" }).click();
    await panel.getByText("No bots yet.").waitFor();
    expect((await apiAs(env.url, key, "/api/ideas", json({ title: "After revoking", body: "x", force: true }))).status).toBe(401);
  });

  it("logged no console errors", () => {
    // The refused status change above is a 409 the page shows; the browser logs it as a failed resource.
    const allowed = /status of 409/;
    expect(problems.filter((p) => !allowed.test(p))).toEqual([]);
    expect(((globalThis as { posterProblems?: string[] }).posterProblems ?? []).filter((p) => !allowed.test(p))).toEqual([]);
  });
});
