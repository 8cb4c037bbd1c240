// Posters on the dashboard (issue 34, point 5), in headless Chromium against the real Worker and render node: a
// finished render's poster image shows in the project page's renders list and as the projects grid's thumbnail, and
// the project page plays the finished render inline (its poster first, then the video, whose time advances), all
// under the dashboard's CSP (a refused image or media load would be a console error).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, openSignedInPage, screenshotDir, shoot } from "./harness.ts";
import { boxPage } from "../node/box-page.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const env = sharedStudio();
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const slug = "poster-page";

/** Whether an <img> loaded a picture (a refused or broken one has no natural size). */
const loaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ page, problems, token } = await openSignedInPage(browser, env.url, "Poster Viewer", { viewport: { width: 1280, height: 900 } }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("posters on the dashboard", () => {
  it("shows a finished render's poster in the renders list and the grid, and plays the render inline on the project page", async () => {
    // 4 s of a small page, long enough to be seen playing: the starter's 1920x1080 frames cost most of this file's time.
    expect((await apiAs(env.url, token, "/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: slug, html: boxPage(slug, 4) }) })).status).toBe(201);
    const done = await apiAs<{ status: string; posterUrl: string | null; downloadUrl: string | null; lines: string[] }>(env.url, token, `/api/projects/${slug}/render?wait=1`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ quality: "draft" }),
    });
    expect(done.body.status, done.body.lines?.join("\n")).toBe("done");
    const posterUrl = done.body.posterUrl!;
    expect(posterUrl).toMatch(/^\/renders\/poster-page_.*\.mp4\/poster$/);

    await page.goto(`${env.url}/project?slug=${slug}`);
    await page.getByRole("tab", { name: "Render" }).click();
    // The renders list: the poster image, loaded from the studio under the page's CSP.
    const listed = page.getByTestId("renders").getByTestId("render-poster").first();
    await listed.waitFor();
    expect(await listed.getAttribute("src")).toBe(posterUrl);
    await expect.poll(() => listed.evaluate(loaded), { timeout: 20_000 }).toBe(true);

    // The finished render plays inline: the poster shows first, then the video runs.
    const player = page.getByTestId("render-player");
    await player.waitFor();
    expect(await player.getAttribute("poster")).toBe(posterUrl);
    expect(await player.getAttribute("src")).toBe(done.body.downloadUrl);
    await shoot(page, shots, "posters-01-project");
    await player.evaluate((video: HTMLVideoElement) => video.play());
    await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
    const first = await player.evaluate((video: HTMLVideoElement) => video.currentTime);
    await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 20_000 }).toBeGreaterThan(first);
    await shoot(page, shots, "posters-02-playing");

    // The projects grid: the render's poster is the project's thumbnail.
    await page.goto(`${env.url}/`);
    const thumb = page.locator(`[data-thumb="poster"][src="${posterUrl}"]`);
    await thumb.waitFor();
    await expect.poll(() => thumb.evaluate(loaded), { timeout: 20_000 }).toBe(true);
    expect(problems).toEqual([]);
  }, 300_000);
});
