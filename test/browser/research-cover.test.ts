// A research record's cover is written by a bot or an admin and seen by everyone who opens the record: a cover on
// another site must cause no request from a viewer's browser (it would be a tracking pixel). In headless Chromium
// against the real Worker: the third-party cover is a link that is never loaded, an image put on the page anyway
// is refused by the dashboard's CSP, and a cover the studio serves is still shown.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownImageSrc } from "../../dashboard/src/lib/own-image.ts";
import { apiAs, launchBrowser, signInAs, watchConsole } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const TRACKER = "https://tracker.example";
/** A 1x1 PNG, the studio's own cover. */
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

const env = sharedStudio();
let browser: Browser;
let owner: { context: BrowserContext; page: Page; token: string };
/** Every request any page of the test made to the tracker's origin (answered with the pixel, as a tracker would). */
const trackerHits: string[] = [];

async function watchedContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  // Interception sits below the page: a request the page's CSP refuses never gets here, one it allows always does.
  await context.route(`${TRACKER}/**`, (route) => {
    trackerHits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "image/png", body: PIXEL });
  });
  return context;
}

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

beforeAll(async () => {
  browser = await launchBrowser();
  const context = await watchedContext();
  const page = await context.newPage();
  const token = await signInAs(page, env.url, "Cora Cover");
  owner = { context, page, token };
  // Research is written by bots (and admins): the person's bot writes two records.
  const bot = await apiAs<{ key: string }>(env.url, token, "/api/bots", post({ name: "cover-bot" }));
  expect(bot.status).toBe(201);
  const tracked = await apiAs(env.url, bot.body.key, "/api/research", post({
    slug: "tracked-cover", name: "A record with a cover elsewhere", body_md: "Text.", cover_url: `${TRACKER}/pixel.png?who=viewer`,
  }));
  expect(tracked.status).toBe(201);
  // The cover is kept as written: the API stores any http(s) URL (the seed's field), the dashboard decides.
  expect((tracked.body as { cover_url: string }).cover_url).toBe(`${TRACKER}/pixel.png?who=viewer`);

  expect((await apiAs(env.url, token, "/api/projects", post({ name: "Covers" }))).status).toBe(201);
  const put = await fetch(`${env.url}/api/projects/covers/files/cover.png`, { method: "PUT", headers: { Authorization: `Bearer ${token}` }, body: PIXEL });
  expect(put.status).toBeLessThan(300);
  const own = await apiAs(env.url, bot.body.key, "/api/research", post({
    slug: "own-cover", name: "A record with the studio's own cover", body_md: "Text.", cover_url: `${env.url}/api/projects/covers/files/cover.png`,
  }));
  expect(own.status).toBe(201);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("research covers", () => {
  it("a cover on another site is a link: opening the record makes no request to that site", async () => {
    for (const context of [owner.context, await watchedContext()]) {
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${env.url}/research?slug=tracked-cover`);
      await page.getByTestId("research-detail").waitFor();
      await page.waitForLoadState("networkidle");
      expect(trackerHits).toEqual([]);
      expect(await page.locator("img").count()).toBe(0);
      const link = page.getByTestId("cover-link");
      expect(await link.getAttribute("href", { timeout: 5000 })).toBe(`${TRACKER}/pixel.png?who=viewer`);
      expect(await link.getAttribute("rel")).toContain("noreferrer");
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("the dashboard's CSP refuses any third-party image, however it gets onto the page", async () => {
    const page = await owner.context.newPage();
    const problems = watchConsole(page, [/Content Security Policy/]);
    await page.goto(`${env.url}/research?slug=tracked-cover`);
    await page.getByTestId("research-detail").waitFor();
    const blocked = await page.evaluate(async (tracker) => {
      const refused: string[] = [];
      document.addEventListener("securitypolicyviolation", (e) => refused.push(`${e.effectiveDirective} ${e.blockedURI}`));
      const img = document.createElement("img");
      img.src = `${tracker}/injected.png`;
      const div = document.createElement("div");
      div.style.backgroundImage = `url(${tracker}/background.png)`;
      document.body.append(img, div);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return { refused, loaded: img.naturalWidth > 0 };
    }, TRACKER);
    expect(blocked.loaded).toBe(false);
    expect(blocked.refused).toContain(`img-src ${TRACKER}/injected.png`);
    expect(trackerHits).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a cover the studio serves is shown as the image", async () => {
    const page = await owner.context.newPage();
    await page.goto(`${env.url}/research?slug=own-cover`);
    const img = page.locator("img.cover");
    await img.waitFor();
    expect(await img.getAttribute("src")).toBe(`${env.url}/api/projects/covers/files/cover.png`);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
    expect(await page.getByTestId("cover-link").count()).toBe(0);
    await page.close();
  });
});

describe("ownImageSrc", () => {
  const origin = "https://studio.example.com";
  it("passes the dashboard's own URLs, absolute or relative, and nothing else", () => {
    expect(ownImageSrc("https://studio.example.com/api/projects/a/files/c.png", origin)).toBe("https://studio.example.com/api/projects/a/files/c.png");
    expect(ownImageSrc("/renders/a.gif", origin)).toBe("https://studio.example.com/renders/a.gif");
    expect(ownImageSrc("https://tracker.example/p.png", origin)).toBeNull();
    expect(ownImageSrc("//tracker.example/p.png", origin)).toBeNull();
    expect(ownImageSrc("http://studio.example.com/c.png", origin)).toBeNull(); // another scheme is another origin
    expect(ownImageSrc("https://studio.example.com.evil.example/c.png", origin)).toBeNull();
    expect(ownImageSrc("https://studio.example.com@tracker.example/c.png", origin)).toBeNull();
    expect(ownImageSrc("javascript:alert(1)", origin)).toBeNull();
    expect(ownImageSrc("data:image/png;base64,AAAA", origin)).toBeNull();
  });
});
