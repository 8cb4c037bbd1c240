// The dashboard reads the API's answers as the Worker declares them, in headless Chromium against the real Worker:
// a check finding shows its rule (`code`) and its composition `time` as the contract names them (the verdict is
// built with core's checkFinding and parsed with the Worker's own schema before it is served), and when the renders
// list cannot be had the projects page still shows the projects and says why their rendered thumbnails are missing
// (it used to swallow that failure and show nothing).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFinding, checkSection } from "../../core/browser/check-findings.ts";
import { checkResult, verdict } from "../../worker/checks/shapes.ts";
import { apiAs, launchBrowser, openSignedInPage, screenshotDir, shoot } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

// The stand-in answers below are failures on purpose; the browser logs them as failed resources.
const EXPECTED = [/status of 503/];

const env = sharedStudio();
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const slug = "answers-clip";

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ page, problems, token } = await openSignedInPage(browser, env.url, "Answer Reader", { viewport: { width: 1280, height: 900 }, allowed: EXPECTED }));
  const created = await apiAs(env.url, token, "/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Answers Clip" }) });
  expect(created.status).toBe(201);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

/** A check verdict with one layout finding at 1.5 s, as the Worker declares the answer (parsed with its schema). */
function checkVerdict() {
  const finding = checkFinding("text-overflow", "index.html", "the title runs past its box", { selector: "#title", time: 1.5, times: [1.5], fixHint: "shorten the title" });
  const lint = { ok: true, errorCount: 0, warningCount: 0, infoCount: 0, findings: [], filesScanned: 1 };
  const layout = { ...checkSection([finding], false), times: [1.5] };
  const result = { ok: layout.ok, strict: false, errorCount: layout.errorCount, warningCount: layout.warningCount, infoCount: layout.infoCount, lint, runtime: checkSection([], false), layout };
  return verdict(checkResult()).parse({ ok: result.ok, exitCode: result.ok ? 0 : 1, result });
}

describe("the dashboard reads the API's answers as declared", () => {
  it("shows a check finding's rule and its time as the contract names them (code, time)", async () => {
    // The check itself needs a render node; its answer is the declared one, served in its place.
    await page.route(`**/api/projects/${slug}/check`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(checkVerdict()) }));
    await page.goto(`${env.url}/project?slug=${slug}`);
    await page.getByRole("tab", { name: "Checks & preview" }).click();
    await page.getByRole("button", { name: "Check", exact: true }).click();
    const results = page.getByTestId("check-results");
    const finding = results.locator(".finding").filter({ hasText: "the title runs past its box" });
    await finding.waitFor({ timeout: 30_000 });
    expect(await finding.locator("code").first().textContent()).toBe("text-overflow");
    expect(await finding.textContent()).toContain("at 1.5 s");
    expect(await finding.textContent()).toContain("#title");
    await shoot(page, shots, "answers-01-check-finding");
    await page.unroute(`**/api/projects/${slug}/check`);
  }, 60_000);

  it("says on the projects page why rendered thumbnails are missing when the renders list fails, and still shows the projects", async () => {
    await page.route("**/api/renders*", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "the renders list is resting", code: "unavailable" }) }),
    );
    await page.goto(`${env.url}/`);
    await page.getByTestId("projects").getByText("Answers Clip").waitFor();
    const note = page.getByTestId("renders-problem");
    await note.waitFor({ timeout: 20_000 });
    expect(await note.textContent()).toContain("the renders list is resting");
    await shoot(page, shots, "answers-02-renders-problem");
    await page.unroute("**/api/renders*");
  }, 60_000);

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});
