// The dashboard's pages as a person meets them (issue 14 point 4), in headless Chromium against the real Worker:
// an unknown address is a real 404 with the app's not-found page; the header fits a 360 px phone on every main
// page; the docs page gives a signed-in person their own token in every example, with a copy button that copies
// it, and a visitor the <TOKEN> placeholder. The interactive API reference runs offline in its sandbox and calls
// the API with the token a person types.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedStudio } from "../node/shared-studio.ts";
import { apiAs, launchBrowser, openPage, screenshotDir, shoot, signInAs, watchConsole } from "./harness.ts";

// The browser logs a document answered with 404 as a failed resource: that is the point of the first test.
const NOT_FOUND_DOCUMENT = /status of 404 \(Not Found\)/;

// The studio every `node-shared` file shares (test/shared-studio-files.ts): its users ("Doc Reader", "Reference
// Reader") and their projects are its own; the idea board and research pages it lays out on a phone show everyone's.
const env = sharedStudio();
let browser: Browser;
let shots: string;
let context: BrowserContext;
let page: Page;
let problems: string[];
let token = "";

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ context, page, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 }, allowed: [NOT_FOUND_DOCUMENT] }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

/** Elements sticking out past the right edge of the screen (tables scroll inside their own box). */
function overflowing(p: Page) {
  return p.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest(".table-wrap, .markdown table, pre"))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  );
}

describe("pages", () => {
  it("answers an unknown address with a 404 status and the app's not-found page", async () => {
    const res = await page.goto(`${env.url}/no/such/page?x=1`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
    expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self'/);
    await page.getByTestId("not-found").getByRole("heading", { name: "Page not found" }).waitFor();
    expect(await page.getByTestId("not-found").textContent()).toContain("/no/such/page");
    expect(await page.title()).toBe("Page not found · Studio");
    await shoot(page, shots, "pages-01-404");
    // Its links lead back into the app.
    await page.getByTestId("not-found").getByRole("link", { name: "Idea board" }).click();
    await page.getByRole("heading", { name: "Idea board" }).waitFor();
    // Missing assets and API paths stay plain 404s, not the page.
    const asset = await fetch(`${env.url}/assets/missing-chunk.js`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    const apiMiss = await fetch(`${env.url}/api/nothing-here`, { headers: { Accept: "text/html" } });
    expect(apiMiss.status).toBe(404);
    expect(await apiMiss.json()).toEqual({ error: expect.any(String), code: "not_found" });
    // The real pages still answer 200.
    for (const path of ["/", "/ideas", "/research", "/docs", "/project?slug=x"]) expect((await fetch(`${env.url}${path}`)).status, path).toBe(200);
  });

  it("shows a visitor the docs with the <TOKEN> placeholder", async () => {
    await page.goto(`${env.url}/docs`);
    const examples = page.getByTestId("docs-example");
    await expect.poll(() => examples.count()).toBeGreaterThan(3);
    for (const text of await examples.locator("code").allTextContents()) {
      if (text.includes("Bearer")) expect(text).toContain("<TOKEN>");
    }
    expect(await page.getByTestId("docs-token-note").textContent()).toMatch(/Sign in/);
  });

  it("shows a signed-in person their own token in every example, with a copy button that copies it", async () => {
    token = await signInAs(page, env.url, "Doc Reader");
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.url });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs", exact: true }).click();
    await page.waitForURL(/\/docs$/);
    const examples = page.getByTestId("docs-example");
    await expect.poll(() => examples.count()).toBeGreaterThan(3);
    const texts = await examples.locator("code").allTextContents();
    expect(texts.join("\n")).not.toContain("<TOKEN>");
    const withAuth = texts.filter((t) => t.includes("Bearer") || t.includes("token="));
    expect(withAuth.length).toBeGreaterThan(3);
    for (const text of withAuth) expect(text).toContain(token);
    const first = examples.filter({ hasText: "/api/me" }).first();
    await first.getByRole("button", { name: "Copy" }).click();
    await first.getByRole("button", { name: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`curl -H "Authorization: Bearer ${token}" ${env.url}/api/me`);
    // The copied example works as it is.
    expect((await apiAs(env.url, token, "/api/me")).status).toBe(200);
    await shoot(page, shots, "pages-02-docs-signed-in");
  });

  it("fits the header and every main page on a 360 px phone", async () => {
    expect((await apiAs(env.url, token, "/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Phone Clip", duration: 2 }) })).status).toBe(201);
    const phone = await context.newPage();
    const phoneProblems = watchConsole(phone, [NOT_FOUND_DOCUMENT]);
    await phone.setViewportSize({ width: 360, height: 740 });
    for (const [path, name] of [
      ["/", "projects"],
      ["/project?slug=phone-clip", "project"],
      ["/ideas", "ideas"],
      ["/research", "research"],
      ["/docs", "docs"],
      ["/nowhere", "404"],
    ] as const) {
      await phone.goto(`${env.url}${path}`);
      await phone.locator("main h1").first().waitFor();
      await phone.waitForLoadState("networkidle");
      expect(await overflowing(phone), `${path}: elements wider than the phone`).toEqual([]);
      const header = await phone.locator("header.topbar").boundingBox();
      expect(header?.height ?? 999, `${path}: header height`).toBeLessThanOrEqual(110);
      // Every section link is on screen, on one line.
      for (const link of await phone.locator("header nav a").all()) {
        const box = await link.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 360, `${path}: ${await link.textContent()} on screen`).toBe(true);
        expect(box?.height ?? 99, `${path}: ${await link.textContent()} on one line`).toBeLessThan(40);
      }
      await shoot(phone, shots, `pages-phone-360-${name}`);
    }
    await phone.close();
    expect(phoneProblems).toEqual([]);
  });

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});

describe("the interactive API reference", () => {
  it("renders from the studio's own assets in an opaque origin, and 'Try it out' calls the API with the token typed under Authorize", async () => {
    // A context of its own: the person signs in afresh, with no cookie from the tests above.
    const { context: own, page: ref, problems: refProblems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    // Anything that would leave the studio is refused and remembered: the reference needs no CDN.
    const elsewhere: string[] = [];
    await ref.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${env.url}/`) || url.startsWith("data:")) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const person = await signInAs(ref, env.url, "Reference Reader");
    await apiAs(env.url, person, "/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Seen from the reference" }) });

    await ref.goto(`${env.url}/api/reference`);
    const list = ref.locator("#operations-projects-listProjects");
    await list.waitFor({ timeout: 30_000 });
    expect(await ref.locator(".info .title").textContent()).toContain("Studio API");
    // The sandbox holds: the page's origin is opaque, so the dashboard's cookie and storage are out of its reach.
    expect(await ref.evaluate(() => window.origin)).toBe("null");
    expect(await ref.evaluate(() => { try { return document.cookie; } catch { return "refused"; } })).toBe("refused");

    await ref.getByRole("button", { name: "Authorize" }).first().click();
    const bearer = ref.locator(".auth-container").filter({ hasText: "bearerToken" });
    await bearer.locator("input").fill(person);
    await bearer.getByRole("button", { name: "Apply credentials" }).click();
    await bearer.getByRole("button", { name: "Remove authorization" }).waitFor();
    await bearer.getByRole("button", { name: "Close", exact: true }).click();

    await list.locator(".opblock-summary").click();
    await list.getByRole("button", { name: "Execute" }).click();
    const body = list.locator(".live-responses-table .response-col_description pre").first();
    await body.waitFor();
    expect(await list.locator(".live-responses-table tr.response .response-col_status").first().textContent()).toContain("200");
    expect(await body.textContent()).toContain("seen-from-the-reference");
    await shoot(ref, shots, "pages-reference");

    expect(elsewhere).toEqual([]);
    expect(refProblems).toEqual([]);
    await own.close();
  });
});
