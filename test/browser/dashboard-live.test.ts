// The project page as an agent works on it (issue 14 point 1), in headless Chromium against the real Worker and
// render node: files an agent writes and deletes appear and disappear without a reload, a render the agent starts
// shows its progress and ends in a toast with a working download, and the projects grid's thumbnail is the
// newer of the latest render's poster frame and the snapshots.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, screenshotDir, shoot, signInAs, startDashboardStudio, watchConsole, type DashboardStudio } from "./harness.ts";

let env: DashboardStudio;
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const slug = "agent-at-work";

env = await startDashboardStudio();
const agent = <T>(path: string, init: RequestInit = {}) => apiAs<T>(env.url, token, path, init);

/** True while the page has not reloaded since `markPage` (a reload drops the window property). */
const stillSamePage = () => page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker === true);
const markPage = () => page.evaluate(() => void ((window as unknown as { __marker?: boolean }).__marker = true));

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on("dialog", (dialog) => void dialog.accept());
  problems = watchConsole(page);
  token = await signInAs(page, env.url, "Live Viewer");
  expect((await agent("/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: slug, duration: 2 }) })).status).toBe(201);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.studio.stop();
});

describe("live project page", () => {
  it("shows files an agent writes and deletes without a reload", async () => {
    await page.goto(`${env.url}/project?slug=${slug}`);
    const files = page.getByTestId("files");
    await files.getByText("index.html", { exact: true }).waitFor();
    await markPage();
    const put = await agent(`/api/projects/${slug}/files/notes/agent.txt`, { method: "PUT", body: "written by an agent" });
    expect(put.status).toBe(200);
    await files.getByText("notes/agent.txt").waitFor({ timeout: 10_000 });
    expect(await agent(`/api/projects/${slug}/files/notes/agent.txt`, { method: "DELETE" })).toMatchObject({ status: 200 });
    await files.getByText("notes/agent.txt").waitFor({ state: "detached", timeout: 10_000 });
    expect(await stillSamePage()).toBe(true);
  });

  it("follows a render the agent starts and ends it with a toast whose link downloads the video", async () => {
    const started = await agent<{ status: string }>(`/api/projects/${slug}/render`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ quality: "draft" }),
    });
    expect(started.status).toBe(202);
    // The page stays on the Files tab: the render streams in the background and the toast comes to wherever one is.
    await page.getByTestId("render-status").waitFor({ state: "attached", timeout: 20_000 });
    const toast = page.getByTestId("toast").filter({ hasText: "Render finished" });
    await toast.waitFor({ timeout: 240_000 });
    await page.getByRole("tab", { name: "Render" }).click();
    expect(await page.getByTestId("render-status").getAttribute("data-status")).toBe("done");
    const href = (await toast.getByTestId("toast-download").getAttribute("href")) ?? "";
    expect(href).toMatch(new RegExp(`^/renders/${slug}_.*\\.mp4\\?download$`));
    // The link works with the page's own cookie, as a click would use it.
    const download = await page.request.get(`${env.url}${href}`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/attachment/);
    expect((await download.body()).subarray(4, 8).toString("latin1")).toBe("ftyp");
    // The renders list picked it up too, and all of it without a reload.
    await page.getByTestId("renders").getByText(new RegExp(`^${slug}_.*\\.mp4$`)).waitFor();
    expect(await stillSamePage()).toBe(true);
    await shoot(page, shots, "live-01-render-toast");
  }, 300_000);

  it("uses the latest render's poster frame as the thumbnail, then a newer snapshot", async () => {
    await page.getByRole("link", { name: "← All projects" }).first().click();
    const thumb = page.getByTestId("projects").locator("[data-thumb]").first();
    await thumb.waitFor();
    expect(await thumb.getAttribute("data-thumb")).toBe("render");
    // The browser decoded a frame of the video: it has a picture, not just a box.
    await expect.poll(() => thumb.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth > 0), { timeout: 20_000 }).toBe(true);
    await shoot(page, shots, "live-02-grid-render-poster");

    const snap = await agent(`/api/projects/${slug}/snapshot`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ frames: 2 }) });
    expect(snap.status).toBe(200);
    await page.reload();
    const img = page.getByTestId("projects").locator("img[data-thumb=snapshot]").first();
    await img.waitFor();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    expect(await img.getAttribute("src")).toMatch(new RegExp(`^${env.studio.contentUrl}/c/[^/]+/snapshots/frame-`));
  }, 120_000);

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});
