// Browser-test harness: the real studio (Worker + render node via startStudio) on a free port with a temp data
// dir, the built dashboard, and a headless Chromium driven by playwright-core (never a downloaded browser).
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { BASE_FLAGS } from "../../render-node/src/browser/launch-capture-browser.ts";
import { resolveChrome } from "../../render-node/src/system/resolve-binaries.ts";
import { preparedDataDir } from "../studio-data.ts";

/** The render node's Chromium (CHROME_PATH, Debian's headless shell, then @sparticuz/chromium), never a download. */
export const chromePath = () => resolveChrome();

export function launchBrowser(): Promise<Browser> {
  return chromePath().then((executablePath) => chromium.launch({ executablePath, args: [...BASE_FLAGS], headless: true }));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface DashboardStudio {
  studio: RunningStudio;
  url: string;
  /** The content origin (CONTENT_URL): play pages, project files and share links. */
  contentUrl: string;
  dataDir: string;
}

/** Starts a studio of the file's own (most files share one: `sharedStudio()` in test/node/shared-studio.ts) on a fresh data dir (or a given prepared one, e.g. with an admin seeded: test/node/seed-user.ts) (with a render node unless told otherwise); the dashboard is built once
 * for the whole run by test/build-dashboard.global.ts. */
export async function startDashboardStudio(options: { renderNode?: boolean; vars?: Record<string, string>; dataDir?: string } = {}): Promise<DashboardStudio> {
  // A given data dir was prepared by the caller (a copy of the prepared folder, perhaps with users written in).
  const dataDir = options.dataDir ?? (await preparedDataDir(mkdtempSync(join(tmpdir(), "studio-browser-"))));
  const studio = await startStudio({ port: await freePort(), dataDir, prepared: true, renderNode: options.renderNode ?? true, vars: options.vars });
  return { studio, url: studio.url, contentUrl: studio.contentUrl, dataDir };
}

/** Where the screenshots of this run go; printed once so a person can look at them. */
export function screenshotDir(): string {
  const dir = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), "studio-dashboard-shots-"));
  mkdirSync(dir, { recursive: true });
  console.log(`dashboard screenshots: ${dir}`);
  return dir;
}

/**
 * The tallest screenshot `shoot` takes, in CSS pixels. A full-page shot costs time by its height: the docs page is
 * 32,913 px tall at 1280 px wide and 104,871 px at 360, and its full-page shots took 35 to 48 s on a loaded machine
 * (past playwright's 30 s), against 0.3 to 2.8 s for its top 4,000 px. Taller pages are shot from their top.
 */
const MAX_SHOT_HEIGHT = 4000;

/**
 * A screenshot for a person to look at (nothing asserts on it): the whole page, or its top MAX_SHOT_HEIGHT. A taller
 * page is shot in a viewport that tall, as playwright's full-page shot does with the page's whole height (its clip
 * option still lays out and rasterizes the whole page: 48 s for the docs), and the viewport is put back.
 */
export async function shoot(page: Page, dir: string, name: string): Promise<void> {
  const path = join(dir, `${name}.png`);
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (!viewport || height <= MAX_SHOT_HEIGHT) {
    await page.screenshot({ path, fullPage: true });
    return;
  }
  await page.setViewportSize({ width: viewport.width, height: MAX_SHOT_HEIGHT });
  try {
    await page.screenshot({ path });
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** Console errors and uncaught exceptions of a page, except the expected resource errors given. */
export function watchConsole(page: Page, allowed: RegExp[] = []): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = `${msg.text()} (${msg.location().url})`;
    if (allowed.some((re) => re.test(text))) return;
    problems.push(text);
  });
  page.on("pageerror", (err) => problems.push(`uncaught: ${err.message}`));
  return problems;
}

/** Signs `page` in through the dashboard's development sign-in and returns the person's API token. */
export async function signInAs(page: Page, url: string, name: string): Promise<string> {
  await page.goto(`${url}/`);
  await page.getByLabel("Development sign-in: your name").fill(name);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: `Welcome, ${name}` }).waitFor();
  const tokenEl = page.getByTestId("token");
  await tokenEl.locator("xpath=self::*[string-length(@data-token) > 10]").waitFor();
  return (await tokenEl.getAttribute("data-token")) ?? "";
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** The page's console errors and uncaught exceptions (watchConsole), for the file to assert empty. */
  problems: string[];
}

/**
 * A page of its own (a new context, so its own cookies) in `browser`, `viewport` wide (playwright's default 1280x720
 * when not given), its console watched from the start with the `allowed` resource errors let through.
 */
export async function openPage(browser: Browser, options: { viewport?: { width: number; height: number }; allowed?: RegExp[] } = {}): Promise<OpenedPage> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const page = await context.newPage();
  return { context, page, problems: watchConsole(page, options.allowed) };
}

/** openPage, then signed in as `name` on the studio at `url` (signInAs): the page, and the person's API token. */
export async function openSignedInPage(
  browser: Browser,
  url: string,
  name: string,
  options: { viewport?: { width: number; height: number }; allowed?: RegExp[] } = {},
): Promise<OpenedPage & { token: string }> {
  const opened = await openPage(browser, options);
  return { ...opened, token: await signInAs(opened.page, url, name) };
}

/** A JSON API call as an agent would make it: Bearer token, no cookie. */
export async function apiAs<T>(url: string, token: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}
