// The dashboard's Render usage panel in headless Chromium against the real Worker (no render node, so a render stays
// queued and counts at its estimate): the chart shows today's render-seconds as a bar, a budget set in the panel
// draws its line and refuses the next render past it, and the panel lists each credential with what it used today.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
import { apiAs, launchBrowser, openSignedInPage, startDashboardStudio, type DashboardStudio } from "./harness.ts";

let studio: DashboardStudio;
let browser: Browser;

beforeAll(async () => {
  studio = await startDashboardStudio({ renderNode: false });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await studio?.studio.stop();
  if (studio) await rm(studio.dataDir, { recursive: true, force: true });
});

const post = (token: string, path: string, body: unknown) =>
  apiAs<{ code?: string; error?: string }>(studio.url, token, path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("Render usage panel", () => {
  it("charts today's render-seconds, sets a budget that draws its line and refuses the next render past it", async () => {
    const { page, problems, token } = await openSignedInPage(browser, studio.url, "Uma Usage", { allowed: [/status of 429/] });
    for (const name of ["Usage One", "Usage Two"]) expect((await post(token, "/api/projects", { name })).status).toBe(201);
    // The starter composition (6 s at 30 fps) reserves its quote's estimate: read from a dry run first.
    const dry = await post(token, "/api/projects/usage-one/render", { quality: "draft", dryRun: true });
    const e = (dry.body as unknown as { quote: { renderSeconds: number } }).quote.renderSeconds;
    const inText = (n: number) => `${Math.round(n * 10) / 10} s`;
    const limit = Math.round(e * 15) / 10; // one render fits, two do not
    expect((await post(token, "/api/projects/usage-one/render", { quality: "draft" })).status).toBe(202);

    await page.reload();
    const panel = page.getByTestId("usage-panel");
    const chart = panel.getByTestId("usage-chart");
    await chart.waitFor();
    expect(await chart.getAttribute("aria-label")).toBe(`Render-seconds per day, last 30 days: ${inText(e)} in all`);
    const bars = chart.locator("rect.usage-bar");
    expect(await bars.count()).toBe(30);
    const today = bars.last();
    expect(await today.getAttribute("data-seconds")).toBe(String(e));
    expect(Number(await today.getAttribute("height"))).toBeGreaterThan(100);
    expect(Number(await bars.first().getAttribute("height"))).toBe(0);
    expect(await panel.getByTestId("usage-budget-line").count()).toBe(0);
    const tokenRow = panel.getByTestId("budget-row").filter({ hasText: "personal token" });
    expect(await tokenRow.locator("td").first().textContent()).toBe(inText(e));

    await panel.getByLabel("Daily budget of you (every credential) (user), render-seconds").fill(String(limit));
    await panel.getByRole("button", { name: "Save" }).first().click();
    // A horizontal line has no height, so Playwright never calls it visible: attached is what is drawn.
    await panel.getByTestId("usage-budget-line").waitFor({ state: "attached" });
    expect(await chart.getAttribute("aria-label")).toBe(`Render-seconds per day, last 30 days: ${inText(e)} in all, budget ${inText(limit)} a day`);
    const you = panel.getByTestId("budget-row").filter({ hasText: "every credential" });
    expect(await you.locator("td").nth(1).textContent()).toBe(inText(limit));

    const refused = await post(token, "/api/projects/usage-two/render", { quality: "draft" });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("budget_exceeded");
    expect(refused.body.error).toContain(`your daily budget is ${inText(limit)} of render time per UTC day, ${inText(e)} used today`);
    await page.reload();
    await chart.waitFor();
    expect(await bars.last().getAttribute("data-seconds")).toBe(String(e));
    expect(problems).toEqual([]);
  }, 90_000);
});
