// Screenshots of the dashboard's main pages at desktop and phone sizes, for a reviewer to look at:
//   node scripts/screenshots.ts [folder]          (default .data/screenshots; NO_RENDER_NODE=1 skips the render)
// It starts a throwaway studio (Worker + render node) on a free port, fills it with a demo project (a draft render
// and snapshots), ideas with a Markdown comment, a research record and a bot, then visits each page signed out and
// signed in, in headless Chromium (the render node's, never a download). The folder gets one PNG per page and size.
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { BASE_FLAGS } from "../render-node/src/browser/launch-capture-browser.ts";
import { resolveChrome } from "../render-node/src/system/resolve-binaries.ts";
import { buildDashboard } from "./lib/dashboard.ts";
import { startStudio } from "./lib/local-studio.ts";

const SIZES = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 360, height: 740 },
] as const;

const out = resolve(process.argv[2] ?? join(".data", "screenshots"));
const withRender = !process.env.NO_RENDER_NODE;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function call<T>(url: string, token: string, path: string, method = "GET", body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function signIn(page: Page, url: string, name: string): Promise<string> {
  await page.goto(`${url}/`);
  await page.getByLabel("Development sign-in: your name").fill(name);
  await page.getByRole("button", { name: "Sign in" }).click();
  const token = page.getByTestId("token");
  await token.locator("xpath=self::*[string-length(@data-token) > 10]").waitFor();
  return (await token.getAttribute("data-token")) ?? "";
}

/** Demo content: a project (rendered and snapshotted when a node runs), ideas, a Markdown comment, research. */
async function seed(url: string, token: string): Promise<{ slug: string; ideaId: number }> {
  const { slug } = await call<{ slug: string }>(url, token, "/api/projects", "POST", { name: "Launch Teaser", duration: 4 });
  await call(url, token, "/api/projects", "POST", { name: "Product Tour", duration: 6 });
  if (withRender) {
    await call(url, token, `/api/projects/${slug}/render?wait=1`, "POST", { quality: "draft" });
    await call(url, token, "/api/projects/product-tour/snapshot", "POST", { frames: 3 });
  }
  let ideaId = 0;
  const titles = [
    "Bar chart race of the largest cities",
    "Kinetic typography lower thirds",
    "Audio-reactive waveform bars",
    "Split-screen before and after wipes",
  ];
  for (const title of titles) {
    const { idea } = await call<{ idea: { id: number } }>(url, token, "/api/ideas", "POST", { title, body: `${title}: a short **demo** idea.`, force: true });
    ideaId ||= idea.id;
  }
  await call(url, token, `/api/ideas/${ideaId}/comments`, "POST", {
    body: "Numbers from the pilot:\n\n| format | seconds |\n|---|---|\n| mp4 | 12 |\n| gif | 3 |\n\nSee [the spec](https://example.com/spec) and run `npm start`.",
  });
  const { key } = await call<{ key: string }>(url, token, "/api/bots", "POST", { name: "Nightly idea bot" });
  await call(url, key, "/api/research", "POST", {
    slug: "gif-sizes",
    name: "GIF sizes by width and frame rate",
    summary: "What a 4 s clip weighs as a GIF.",
    body_md: "| width | fps | size |\n|---|---|---|\n| 720 | 15 | 2.1 MB |\n| 1080 | 30 | 20 MB |\n\nTwo-pass palettes keep gradients clean.",
    lines: ["720 px at 15 fps stays under 3 MB"],
  });
  return { slug, ideaId };
}

async function shootAll(browser: Browser, url: string, slug: string, ideaId: number): Promise<string[]> {
  const written: string[] = [];
  for (const size of SIZES) {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const page = await context.newPage();
    // Whole pages from the top; the editor as the screen shows it (CodeMirror draws only the lines on screen).
    const shot = async (name: string, fullPage = true) => {
      // A page that keeps a connection open (an event stream) never goes network-idle: shot as it stands, said so.
      await page.waitForLoadState("networkidle").catch((error: unknown) => console.warn(`screenshots: ${name} not network-idle, shot anyway (${String(error)})`));
      if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
      const file = join(out, `${size.name}-${name}.png`);
      await page.screenshot({ path: file, fullPage });
      written.push(file);
    };
    await page.goto(`${url}/`);
    await page.getByLabel("Development sign-in: your name").waitFor();
    await shot("01-home-signed-out");
    await page.goto(`${url}/docs`);
    await page.getByTestId("docs-example").first().waitFor();
    await shot("02-docs-visitor");
    await signIn(page, url, "Screenshot Person");
    await shot("03-home-projects");
    await page.goto(`${url}/project?slug=${slug}`);
    await page.getByTestId("files").waitFor();
    await shot("04-project-files");
    await page.getByRole("button", { name: "Edit index.html" }).click();
    await page.getByTestId("code-editor").locator(".cm-content").waitFor();
    // The lint panel only decorates the shot: without it after 15 s the editor is shot as it stands, said so.
    await page.getByTestId("editor-lint").waitFor({ timeout: 15_000 }).catch((error: unknown) => console.warn(`screenshots: no lint panel, editor shot without it (${String(error)})`));
    // CodeMirror draws the lines on screen: bring the editor into view before the full-page shot.
    await page.getByTestId("file-editor").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await shot("05-project-editor", false);
    await page.getByRole("tab", { name: "Render" }).click();
    await shot("06-project-render");
    await page.getByRole("tab", { name: "Snapshots" }).click();
    await shot("07-project-snapshots");
    await page.goto(`${url}/ideas`);
    await page.getByTestId("idea").first().waitFor();
    await shot("08-ideas");
    await page.goto(`${url}/idea?id=${ideaId}`);
    await page.getByTestId("markdown").first().waitFor();
    await shot("09-idea-detail");
    await page.goto(`${url}/research?slug=gif-sizes`);
    await page.getByTestId("research-detail").waitFor();
    await shot("10-research");
    await page.goto(`${url}/docs`);
    await page.getByTestId("docs-example").first().waitFor();
    await shot("11-docs-signed-in");
    await page.goto(`${url}/no/such/page`);
    await page.getByTestId("not-found").waitFor();
    await shot("12-not-found");
    await context.close();
  }
  return written;
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  await buildDashboard();
  const studio = await startStudio({ port: await freePort(), dataDir: mkdtempSync(join(tmpdir(), "studio-shots-")), renderNode: withRender });
  const browser = await chromium.launch({ executablePath: await resolveChrome(), args: [...BASE_FLAGS], headless: true });
  try {
    const page = await browser.newPage();
    const token = await signIn(page, studio.url, "Screenshot Person");
    await page.close();
    const { slug, ideaId } = await seed(studio.url, token);
    const files = await shootAll(browser, studio.url, slug, ideaId);
    console.log(`${files.length} screenshots in ${out}`);
  } finally {
    await browser.close();
    await studio.stop();
  }
}

await main();
