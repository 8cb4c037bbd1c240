// The live view on the dashboard (issue 35, point 3), in headless Chromium against the real Worker and render node:
// the project page plays a running render's live playlist (hls.js, under the dashboard's CSP) before the render is
// done, its video time advancing.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, openSignedInPage, screenshotDir, shoot } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";
import { indexHtml, SUB_HTML } from "../../render-node/test/make-test-project.ts";

const env = sharedStudio();
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const slug = "live-page";

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ page, problems, token } = await openSignedInPage(browser, env.url, "Live Viewer", { viewport: { width: 1280, height: 900 } }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("the live view on the dashboard", () => {
  it("plays a running render's finished segments on the project page before the render is done", async () => {
    const json = { "Content-Type": "application/json" };
    // 20 s of a small composition: ten segments, the render runs long after the first one is up.
    expect((await apiAs(env.url, token, "/api/projects", { method: "POST", headers: json, body: JSON.stringify({ name: slug, html: indexHtml(20, 1) }) })).status).toBe(201);
    await apiAs(env.url, token, `/api/projects/${slug}/files/compositions/sub.html`, { method: "PUT", body: SUB_HTML });
    const started = await apiAs<{ liveUrl?: string }>(env.url, token, `/api/projects/${slug}/render`, { method: "POST", headers: json, body: JSON.stringify({ quality: "draft" }) });
    expect(started.body.liveUrl).toMatch(/^\/api\/renders\/.+\/live\.m3u8$/);
    try {
      await page.goto(`${env.url}/project?slug=${slug}`);
      await page.getByRole("tab", { name: "Render" }).click();
      const player = page.getByTestId("render-live-player");
      await player.waitFor();
      await expect.poll(() => player.getAttribute("data-playing"), { timeout: 60_000 }).toBe("true");
      await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.5);
      const state = await apiAs<{ status: string }>(env.url, token, `/api/projects/${slug}/render`);
      expect(state.body.status).toBe("rendering");
      await shoot(page, shots, "live-01-playing");
      expect(problems).toEqual([]);
    } finally {
      await apiAs(env.url, token, `/api/projects/${slug}/render`, { method: "DELETE" });
    }
  }, 300_000);
});
