// The render form's encoder options and the batch view (issue 23, items 2 and 4), in headless Chromium against the
// real Worker and a real render node: a crf typed in the form reaches the render (its log in the API answer says so)
// and the download works; a crf out of range shows the API's own message and nothing renders; a 2-row batch started
// from the rows table (the composition's declared variable as a column) shows both rows done with two downloads, each
// file painted in its row's colour; a batch written as JSON and cancelled shows cancelled, row by row.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveFfmpeg } from "../../render-node/src/system/resolve-binaries.ts";
import { readPixel } from "../../render-node/test/inspect-video.ts";
import { SWATCH_CANVAS, swatchComposition } from "../node/swatch-composition.ts";
import { apiAs, launchBrowser, openSignedInPage, screenshotDir, shoot } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const env = sharedStudio();
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const SWATCHES = "swatches";
const PLAIN = "plain-batch";
const { ffmpeg } = resolveFfmpeg();
const downloads = mkdtempSync(join(tmpdir(), "studio-batch-downloads-"));
const agent = <T>(path: string, init: RequestInit = {}) => apiAs<T>(env.url, token, path, init);
const postJson = <T>(path: string, body: unknown) => agent<T>(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

/** Downloads a link as the page's own cookie would (a click), to a file; its path. */
async function download(href: string, name: string): Promise<string> {
  const res = await page.request.get(`${env.url}${href}`);
  expect(res.status(), href).toBe(200);
  expect(res.headers()["content-disposition"]).toMatch(/attachment/);
  const body = await res.body();
  expect(body.subarray(4, 8).toString("latin1")).toBe("ftyp");
  const file = join(downloads, name);
  writeFileSync(file, body);
  return file;
}

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  // The refused render (crf out of range) is the one failed request the page makes, on purpose.
  ({ page, problems, token } = await openSignedInPage(browser, env.url, "Batch Maker", {
    viewport: { width: 1280, height: 1000 },
    allowed: [/status of 400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/api\/projects\/swatches\/render\)/],
  }));
  expect((await postJson("/api/projects", { name: "Swatches", html: swatchComposition(SWATCHES) })).status).toBe(201);
  expect((await postJson("/api/projects", { name: PLAIN, duration: 6 })).status).toBe(201);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("render form options", () => {
  it("shows crf or videoBitrate for mp4 and webm only, gifLoop for gif only, and the transparency note", async () => {
    await page.goto(`${env.url}/project?slug=${SWATCHES}`);
    await page.getByRole("tab", { name: "Render" }).click();
    const format = page.locator("#render-format");
    const rate = page.getByLabel("Rate control");
    await rate.selectOption("crf");
    // The range is core's CRF_MAX per format, as the API checks it.
    expect(await page.locator("#render-crf").getAttribute("max")).toBe("51");
    await format.selectOption("webm");
    expect(await page.locator("#render-crf").getAttribute("max")).toBe("63");
    await page.getByTestId("render-alpha-note").getByText("webm keeps the page's transparency").waitFor();
    await rate.selectOption("bitrate");
    expect(await page.locator("#render-crf").count()).toBe(0);
    await page.getByLabel("Video bitrate").waitFor();
    await format.selectOption("gif");
    expect(await rate.count()).toBe(0);
    expect(await page.getByLabel("Video bitrate").count()).toBe(0);
    expect(await page.locator("#render-gif-loop").getAttribute("max")).toBe("65535");
    expect(await page.getByTestId("render-alpha-note").count()).toBe(0);
    await format.selectOption("png-sequence");
    await page.getByTestId("render-alpha-note").getByText("A png-sequence is a .zip of PNG frames").waitFor();
    expect(await page.locator("#render-gif-loop").count()).toBe(0);
  });

  it("shows the API's message for a crf out of range, and nothing is rendered", async () => {
    await page.locator("#render-format").selectOption("mp4");
    await page.getByLabel("Quality").selectOption("draft");
    await page.getByLabel("Rate control").selectOption("crf");
    await page.locator("#render-crf").fill("60");
    await page.getByRole("button", { name: "Render", exact: true }).click();
    // The same request from an agent: the API's 400 and its words, which the page shows as they come.
    const refused = await postJson<{ error: string }>(`/api/projects/${SWATCHES}/render`, { quality: "draft", format: "mp4", strict: false, crf: 60 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid crf: 60; give an integer from 0 to 51 for mp4");
    await page.locator("#panel-render [role=alert]").getByText(refused.body.error, { exact: true }).waitFor();
    expect((await agent<{ status: string }>(`/api/projects/${SWATCHES}/render`)).body.status).toBe("none");
    expect((await agent<{ renders: unknown[] }>("/api/renders")).body.renders).toEqual([]);
    await shoot(page, shots, "batch-01-crf-refused");
  });

  it("renders with the crf typed in the form: the render's log in the API says crf 30, and the download is there", async () => {
    await page.locator("#render-crf").fill("30");
    await page.getByRole("button", { name: "Render", exact: true }).click();
    const status = page.getByTestId("render-status");
    await status.and(page.locator("[data-status=done]")).waitFor({ timeout: 240_000 });
    const href = (await page.getByRole("link", { name: "Download video" }).getAttribute("href")) ?? "";
    expect(href).toMatch(new RegExp(`^/renders/${SWATCHES}_.*\\.mp4\\?download$`));
    await download(href, "crf.mp4");
    const render = await agent<{ status: string; lines: string[] }>(`/api/projects/${SWATCHES}/render`);
    expect(render.body.status).toBe("done");
    expect(render.body.lines.find((line) => line.startsWith("render queued:"))).toContain("format mp4, quality draft, fps 30, crf 30");
    await shoot(page, shots, "batch-02-crf-done");
  }, 300_000);
});

describe("batch view", () => {
  it("starts a 2-row batch from the declared variables' table and shows both rows done with two downloads", async () => {
    await page.getByLabel("Rate control").selectOption("preset");
    const table = page.getByTestId("batch-rows");
    // The composition declares `swatch`: it is a column, its default the placeholder.
    await table.getByRole("columnheader", { name: "swatch (color)" }).waitFor();
    expect(await page.getByLabel("Row 0 swatch").getAttribute("placeholder")).toBe("#000000");
    await page.getByText(/up to 100 rows/).waitFor();
    await page.getByLabel("Row 0 swatch").fill("#ff0000");
    await page.getByLabel("Row 1 name").fill("blue");
    await page.getByLabel("Row 1 swatch").fill("#0000ff");
    await page.getByRole("button", { name: "Start batch" }).click();
    const status = page.getByTestId("batch-status");
    await status.waitFor();
    await status.and(page.locator("[data-status=done]")).waitFor({ timeout: 300_000 });
    const rows = page.getByTestId("batch-row");
    expect(await rows.count()).toBe(2);
    expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-status")))).toEqual(["done", "done"]);
    const links = status.getByRole("link", { name: /^Download row/ });
    expect(await links.count()).toBe(2);
    const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute("href") ?? ""));
    expect(hrefs).toEqual([expect.stringMatching(new RegExp(`^/renders/${SWATCHES}-0_.*\\.mp4\\?download$`)), expect.stringMatching(new RegExp(`^/renders/${SWATCHES}-blue_.*\\.mp4\\?download$`))]);
    const [red, blue] = await Promise.all(hrefs.map(async (href, i) => readPixel(ffmpeg, await download(href, `row-${i}.mp4`), SWATCH_CANVAS.width, 10, 100, 100)));
    // Each row's variables reached its render: the swatch has its row's colour.
    expect(red![0]).toBeGreaterThan(180);
    expect(red![2]).toBeLessThan(80);
    expect(blue![2]).toBeGreaterThan(180);
    expect(blue![0]).toBeLessThan(80);
    expect((await agent<{ status: string }>(`/api/projects/${SWATCHES}/batch`)).body.status).toBe("done");
    await shoot(page, shots, "batch-03-done");
  }, 360_000);

  it("starts a batch written as JSON and cancels it: the batch and its rows show cancelled", async () => {
    await page.goto(`${env.url}/project?slug=${PLAIN}`);
    await page.getByRole("tab", { name: "Render" }).click();
    await page.getByLabel("Quality").selectOption("draft");
    // No declared variables: the rows are JSON.
    const rows = page.getByLabel("Rows (JSON)");
    await rows.fill(JSON.stringify([{ name: "one" }, { name: "two" }]));
    await page.getByRole("button", { name: "Start batch" }).click();
    const status = page.getByTestId("batch-status");
    await status.and(page.locator(":is([data-status=queued], [data-status=rendering])")).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Cancel batch" }).click();
    await status.and(page.locator("[data-status=cancelled]")).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.getByTestId("batch-row").evaluateAll((els) => els.map((el) => el.getAttribute("data-status"))), { timeout: 30_000 })
      .toEqual(["cancelled", "cancelled"]);
    expect(await status.getByRole("link", { name: /^Download row/ }).count()).toBe(0);
    expect((await agent<{ status: string }>(`/api/projects/${PLAIN}/batch`)).body.status).toBe("cancelled");
    await shoot(page, shots, "batch-04-cancelled");
  }, 120_000);

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});
