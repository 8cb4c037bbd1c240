// The dashboard in headless Chromium against the real Worker and render node: sign-in, token, projects, files,
// render with live progress, playback, the idea board, and page-view counting. Screenshots of every page are
// written to a temporary folder (printed at the start) for a person to look at.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, screenshotDir, shoot, watchConsole } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

// Expected failures the dashboard shows to the person (e.g. the 409 of a duplicate idea) also log a resource error.
const EXPECTED_RESOURCE_ERRORS = [/status of 409/];

const env = sharedStudio();
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
let slug = "";

const contentOrigin = () => env.contentUrl;

async function api<T>(path: string, init: RequestInit = {}, auth = token): Promise<{ status: number; body: T }> {
  const res = await fetch(`${env.url}${path}`, { ...init, headers: { Authorization: `Bearer ${auth}`, ...(init.headers ?? {}) } });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ context, page, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 }, allowed: EXPECTED_RESOURCE_ERRORS }));
  page.on("dialog", (dialog) => void dialog.accept());
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("dashboard", () => {
  it("signed out: explains the studio, offers the development sign-in and shows public stats", async () => {
    const res = await page.goto(`${env.url}/`);
    // Every page below runs under the dashboard's CSP, so a violation would be a console error at the end.
    expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self'; style-src 'self';/);
    await page.getByRole("heading", { name: /video studio for AI agents/i }).waitFor();
    await page.getByLabel("Development sign-in: your name").waitFor();
    // Providers that are not configured get no button.
    expect(await page.getByRole("link", { name: "Sign in with GitHub" }).count()).toBe(0);
    await page.waitForFunction(() => !document.querySelector("[data-testid=stats]")?.textContent?.includes("…"));
    await shoot(page, shots, "01-signed-out");
  });

  it("development sign-in shows the token and a curl line; rotating replaces it and kills the old one", async () => {
    await page.getByLabel("Development sign-in: your name").fill("Ada Browser");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Welcome, Ada Browser" }).waitFor();
    const tokenEl = page.getByTestId("token");
    await expect.poll(() => tokenEl.getAttribute("data-token")).toBeTruthy();
    token = (await tokenEl.getAttribute("data-token")) ?? "";
    expect((await api("/api/me")).status).toBe(200);
    await page.getByRole("button", { name: "Show" }).click();
    expect(await tokenEl.textContent()).toBe(token);
    expect(await page.getByTestId("curl").textContent()).toContain(token);
    // Nothing stored yet, and the quota (5 GiB by default) beside it.
    expect(await page.getByTestId("storage").textContent()).toMatch(/^Storage: 0 bytes of 5 GiB used/);
    await shoot(page, shots, "02-signed-in-token");

    await page.getByRole("button", { name: "Rotate" }).click();
    await page.getByText("New token issued").waitFor();
    const rotated = (await tokenEl.getAttribute("data-token")) ?? "";
    expect(rotated).not.toBe(token);
    expect((await api("/api/me", {}, token)).status).toBe(401);
    expect((await api("/api/me", {}, rotated)).status).toBe(200);
    token = rotated;
  });

  it("creates a project from the grid and opens its page", async () => {
    await page.getByLabel("New project name").fill("Browser Test Clip");
    await page.getByLabel("Seconds", { exact: true }).fill("2");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/project\?slug=browser-test-clip$/);
    slug = "browser-test-clip";
    await page.getByRole("heading", { name: "Browser Test Clip" }).waitFor();
    await page.getByTestId("files").getByText("index.html", { exact: true }).waitFor();
    const list = await api<{ projects: { name: string; duration: number }[] }>("/api/projects");
    expect(list.body.projects.map((p) => p.name)).toContain(slug);
  });

  it("uploads an asset by drag and drop, byte for byte", async () => {
    const bytes = Array.from({ length: 256 }, (_, i) => i);
    await page.getByTestId("dropzone").evaluate((zone, data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], "blob.bin", { type: "application/octet-stream" }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    await page.getByTestId("files").getByText("assets/blob.bin").waitFor();
    const res = await fetch(`${env.url}/api/projects/${slug}/files/assets/blob.bin`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(Array.from(new Uint8Array(await res.arrayBuffer()))).toEqual(bytes);
    await shoot(page, shots, "03-project");
  });

  it("edits a text file in place", async () => {
    const before = await (await fetch(`${env.url}/api/projects/${slug}/files/meta.json`, { headers: { Authorization: `Bearer ${token}` } })).text();
    await page.getByRole("button", { name: "Edit meta.json" }).click();
    const code = page.getByTestId("code-editor").locator(".cm-content");
    await code.waitFor();
    await code.locator(".cm-line").first().click();
    await page.keyboard.press("Home");
    await page.keyboard.type(" ");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("editor-state").getByText("Saved.").waitFor();
    const after = await (await fetch(`${env.url}/api/projects/${slug}/files/meta.json`, { headers: { Authorization: `Bearer ${token}` } })).text();
    expect(after).toBe(` ${before}`);
    await page.getByRole("button", { name: "Close" }).click();
  });

  it("lints the project and shows the findings a person can read", async () => {
    await page.getByRole("tab", { name: "Checks & preview" }).click();
    await page.getByRole("button", { name: "Lint", exact: true }).click();
    const results = page.getByTestId("check-results");
    await results.waitFor({ timeout: 30_000 });
    expect(await results.textContent()).toMatch(/Lint (passed|found problems)/);
    expect(await results.textContent()).toMatch(/\d+ errors?, \d+ warnings?/);
    await shoot(page, shots, "03b-project-lint");
  });

  it("shows the project card with a placeholder thumbnail on the projects grid", async () => {
    await page.getByRole("link", { name: "← All projects" }).first().click();
    await page.getByTestId("projects").getByText("Browser Test Clip").waitFor();
    expect(await page.locator(".thumb.placeholder").count()).toBeGreaterThan(0);
    await shoot(page, shots, "04-projects-grid");
    await page.getByTestId("projects").getByText("Browser Test Clip").click();
    await page.waitForURL(/\/project\?slug=/);
  });

  it("renders a draft with a live progress bar that reaches 100%, then plays it", async () => {
    await page.getByRole("tab", { name: "Render" }).click();
    await page.getByLabel("Quality").selectOption("draft");
    await page.getByRole("button", { name: "Render", exact: true }).click();
    const bar = page.getByTestId("render-progress");
    await bar.waitFor();
    const seen = new Set<string>();
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const status = await page.getByTestId("render-status").getAttribute("data-status");
      seen.add(`${await bar.getAttribute("aria-valuenow")}`);
      if (status === "done" || status === "failed" || status === "cancelled") break;
      await page.waitForTimeout(200);
    }
    const log = await page.getByTestId("render-log").textContent();
    expect(await page.getByTestId("render-status").getAttribute("data-status"), log ?? "").toBe("done");
    expect(await bar.getAttribute("aria-valuenow")).toBe("100");
    expect(await page.getByTestId("render-percent").textContent()).toContain("100%");
    expect(log).toMatch(/frame \d+\/\d+/);
    await shoot(page, shots, "05-render-done");

    const renders = page.getByTestId("renders");
    await renders.getByText(new RegExp(`^${slug}_.*\\.mp4$`)).waitFor();
    await renders.getByRole("button", { name: "Play" }).first().click();
    const player = page.getByTestId("player");
    await player.waitFor();
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && v.duration > 0 && !v.error), { timeout: 20_000 })
      .toBe(true);
    await shoot(page, shots, "06-render-playing");
  }, 300_000);

  it("takes snapshots, shows them with the contact sheet, and the grid uses one as the thumbnail", async () => {
    await page.getByRole("tab", { name: "Snapshots" }).click();
    await page.locator("#snap-frames").fill("3");
    await page.getByRole("button", { name: "Take snapshots" }).click();
    const sheet = page.getByAltText("Contact sheet of the snapshots");
    await sheet.waitFor({ timeout: 90_000 });
    await expect.poll(() => sheet.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId("snapshots").locator("img").count()).toBeGreaterThanOrEqual(3);
    // Everything shown from the project comes from the content origin, under a capability link.
    expect(await sheet.getAttribute("src")).toMatch(new RegExp(`^${contentOrigin()}/c/[^/]+/snapshots/contact-sheet\\.png`));
    await shoot(page, shots, "06b-snapshots");
    await page.getByRole("link", { name: "← All projects" }).first().click();
    const card = page.getByTestId("projects").locator("img").first();
    await card.waitFor();
    await expect.poll(() => card.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await card.getAttribute("src")).toMatch(new RegExp(`^${contentOrigin()}/c/[^/]+/snapshots/frame-`));
    await page.getByTestId("projects").getByText("Browser Test Clip").click();
    await page.waitForURL(/\/project\?slug=/);
  }, 120_000);

  it("plays the project in the browser on the content origin, and makes a share link that works signed out", async () => {
    const [player] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: "Play in the browser" }).click()]);
    await player.waitForURL(new RegExp(`^${contentOrigin()}/c/[^/]+/$`));
    await player.waitForSelector("html[data-studio-player-ready]", { timeout: 20_000 });
    await shoot(player, shots, "06e-player");
    await player.close();
    await page.getByRole("tab", { name: "Files" }).click();
    expect(await page.getByTestId("files").getByRole("link", { name: "index.html", exact: true }).getAttribute("href")).toMatch(
      new RegExp(`^${contentOrigin()}/c/[^/]+/index\\.html$`),
    );

    await page.getByRole("button", { name: "Share a link to this project" }).click();
    const field = page.getByTestId("share-link").getByLabel("Share link");
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toMatch(new RegExp(`^${contentOrigin()}/c/[^/]+/$`));
    expect(url).not.toContain(token);
    const shared = await fetch(url);
    expect(shared.status).toBe(200);
    expect(await shared.text()).toContain("/_studio/player.js");
    await shoot(page, shots, "06f-share");
  }, 60_000);

  it("runs a browser check and shows its lint, runtime and layout sections", async () => {
    await page.getByRole("tab", { name: "Checks & preview" }).click();
    await page.getByRole("button", { name: "Check", exact: true }).click();
    const results = page.getByTestId("check-results");
    await results.getByText(/^Check (passed|found problems)/).waitFor({ timeout: 90_000 });
    const text = (await results.textContent()) ?? "";
    for (const section of [/lint/i, /runtime/i, /layout/i]) expect(text).toMatch(section);
    await shoot(page, shots, "06c-check");
  }, 120_000);

  it("starts a preview, links to it, and stops it", async () => {
    await page.getByRole("button", { name: "Start preview" }).click();
    const link = page.getByTestId("preview-link");
    await link.waitFor({ timeout: 60_000 });
    const url = (await link.getAttribute("href")) ?? "";
    // The link carries the preview's secret and the content host (CONTENT_URL), not the API host.
    expect(url).toMatch(/^http:\/\/localhost:(30\d\d|3[1-9]\d\d)\/[A-Za-z0-9_-]{43}\/$/);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("data-composition-id");
    await shoot(page, shots, "06d-preview");
    await page.getByRole("button", { name: "Stop preview" }).click();
    await page.getByText("Not running.").waitFor({ timeout: 20_000 });
  }, 90_000);

  it("counts a client-side navigation as a page view", async () => {
    const before = (await api<{ pageViews: number }>("/api/stats")).body.pageViews;
    await page.getByRole("link", { name: "Research" }).click();
    await page.waitForURL(/\/research$/);
    await expect.poll(async () => (await api<{ pageViews: number }>("/api/stats")).body.pageViews).toBeGreaterThan(before);
  });

  it("posts an idea, warns about a duplicate while typing, and votes", async () => {
    const title = "Animated bar chart race of the largest cities";
    const body = "A 30 second bar chart race of city populations from 1950 to 2030, with a calm voice-over.";
    await page.getByRole("link", { name: "Idea board" }).click();
    await page.waitForURL(/\/ideas$/);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel(/What should be made/).fill(body);
    await page.getByRole("button", { name: "Post idea" }).click();
    await page.waitForURL(/\/idea\?id=/);
    await page.getByTestId("idea-detail").getByRole("heading", { name: title }).waitFor();
    await shoot(page, shots, "07-idea-detail");

    await page.getByRole("link", { name: "← Idea board" }).click();
    await page.getByTestId("ideas").getByText(title).waitFor();
    await page.getByLabel("Title").fill("Bar chart race of the largest cities");
    await page.getByLabel(/What should be made/).fill("city populations over time as a bar chart race");
    const similar = page.getByTestId("similar");
    await similar.getByText(title).waitFor();
    expect(await similar.textContent()).toMatch(/already exist|Similar ideas/);
    await shoot(page, shots, "08-ideas-duplicate-warning");

    const row = page.getByTestId("idea").filter({ hasText: title });
    const vote = row.getByTestId("vote");
    const count = Number(await vote.locator(".vote-count").textContent());
    await vote.click();
    await expect.poll(() => vote.getAttribute("aria-pressed")).toBe("true");
    expect(Number(await vote.locator(".vote-count").textContent())).toBe(count + 1);
    await vote.click();
    await expect.poll(() => vote.getAttribute("aria-pressed")).toBe("false");
  });

  it("is usable on a phone-sized screen", async () => {
    const phone = await context.newPage();
    const phoneProblems = watchConsole(phone, EXPECTED_RESOURCE_ERRORS);
    await phone.setViewportSize({ width: 360, height: 740 });
    await phone.goto(`${env.url}/project?slug=${slug}`);
    await phone.getByRole("heading", { name: "Browser Test Clip" }).waitFor();
    const wide = await phone.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest(".table-wrap"))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    );
    expect(wide, "elements wider than the phone screen").toEqual([]);
    await shoot(phone, shots, "09-phone-project");
    await phone.goto(`${env.url}/ideas`);
    await phone.getByRole("heading", { name: "Idea board" }).waitFor();
    await shoot(phone, shots, "10-phone-ideas");
    await phone.close();
    expect(phoneProblems).toEqual([]);
  });

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});
