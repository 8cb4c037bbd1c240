// /play runs a composition on the GSAP release it pins, in real Chromium against the real studio (wrangler dev, its
// assets built by the dashboard build): 3.12.5 from cdnjs plays on 3.12.5 with nothing fetched from the internet,
// and an unshipped 3.12.2 plays on the nearest shipped release with the substitution in the player's bar.
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, signInAs } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const composition = (gsapUrl: string) => `<!doctype html><html><head><script src="${gsapUrl}"></script>
<style>html, body { margin: 0; width: 320px; height: 180px; background: #000; } #box { width: 20px; height: 20px; background: #fff; }</style>
</head><body><div data-composition-id="main" data-start="0" data-duration="2" data-width="320" data-height="180"><div id="box"></div></div>
<script>window.__timelines = { main: gsap.timeline({ paused: true }).to("#box", { x: 200, duration: 2, ease: "none" }) };</script>
</body></html>`;

const env = sharedStudio();
let browser: Browser;
let context: BrowserContext;
let token = "";

beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext();
  token = await signInAs(await context.newPage(), env.url, "gsap-player");
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens /play for a project whose page loads `gsapUrl`, offline, and reads what ran. */
async function play(slug: string, gsapUrl: string) {
  const made = await apiAs(env.url, token, "/api/projects", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: slug, html: composition(gsapUrl) }),
  });
  expect(made.status).toBe(201);
  const page = await context.newPage();
  const outside: string[] = [];
  const content = new URL(env.contentUrl).host;
  await page.route("**/*", (route) => {
    const host = new URL(route.request().url()).host;
    if (host === new URL(env.url).host || host === content) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  await page.goto(`${env.url}/play/${slug}`);
  await page.waitForSelector("html[data-studio-player-ready]", { timeout: 20_000 });
  await page.keyboard.press("End");
  const seen = await page.evaluate(() => {
    const w = window as unknown as { gsap: { version: string; getProperty(t: string, p: string): number } };
    return {
      version: w.gsap.version,
      x: w.gsap.getProperty("#box", "x"),
      notice: document.querySelector("[data-studio-notice]")?.textContent ?? null,
    };
  });
  await page.close();
  return { ...seen, outside };
}

describe("/play's GSAP in the browser", () => {
  it("runs the composition on GSAP 3.12.5 when it pins 3.12.5, with nothing from the internet", async () => {
    const seen = await play("pinned", "https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.5/gsap.min.js");
    expect(seen).toEqual({ version: "3.12.5", x: 200, notice: null, outside: [] });
  });

  it("runs an unshipped 3.12.2 on 3.12.5 and says so in the player's bar", async () => {
    const url = "https://cdn.jsdelivr.net/npm/gsap@3.12.2/dist/gsap.min.js";
    const seen = await play("nearest", url);
    expect(seen).toEqual({
      version: "3.12.5",
      x: 200,
      notice: `\u26a0 GSAP 3.12.2 requested (${url}); served GSAP 3.12.5, the nearest release render nodes ship`,
      outside: [],
    });
  });
});
