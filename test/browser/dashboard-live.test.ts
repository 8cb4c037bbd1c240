// The project page as an agent works on it (issue 14 point 1, issue 21 point 5), in headless Chromium against the
// real Worker and render node: files an agent writes and deletes appear and disappear without a reload; a render the
// agent starts through the API (never the page) is shown in progress within a couple of seconds, with its progress,
// and ends in a toast with a working download and in the renders list; so is its next one, started as an MCP task
// (issue 34, point 8), and one started while the page's project stream was down; the projects grid's thumbnail is the newer of the latest render's poster frame and
// the snapshots.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAs, launchBrowser, openPage, screenshotDir, shoot, signInAs } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const env = sharedStudio();
let browser: Browser;
let page: Page;
let shots: string;
let problems: string[];
let token = "";
const slug = "agent-at-work";
const agent = <T>(path: string, init: RequestInit = {}) => apiAs<T>(env.url, token, path, init);

/** True while the page has not reloaded since `markPage` (a reload drops the window property). */
const stillSamePage = () => page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker === true);
const markPage = () => page.evaluate(() => void ((window as unknown as { __marker?: boolean }).__marker = true));

beforeAll(async () => {
  shots = screenshotDir();
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } }));
  page.on("dialog", (dialog) => void dialog.accept());
  // The page's project streams, so a test can drop them as a broken connection leaves an EventSource: closed, with
  // an `error` event (the page then reopens the stream after a pause, from the real server).
  await page.addInitScript(() => {
    const streams = new Set<EventSource>();
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        if (/\/api\/projects\/[^/]+\/events$/.test(String(url))) streams.add(this);
      }
    };
    (window as unknown as { __dropProjectStreams: () => number }).__dropProjectStreams = () => {
      const dropped = streams.size;
      for (const stream of streams) {
        stream.close();
        stream.dispatchEvent(new Event("error"));
      }
      streams.clear();
      return dropped;
    };
  });
  token = await signInAs(page, env.url, "Live Viewer");
  expect((await agent("/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: slug, duration: 2 }) })).status).toBe(201);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

describe("live project page", () => {
  it("shows files an agent writes and deletes without a reload", async () => {
    await page.goto(`${env.url}/project?slug=${slug}`);
    const files = page.getByTestId("files");
    await files.getByText("index.html", { exact: true }).waitFor();
    await markPage();
    const put = await agent(`/api/projects/${slug}/files/notes/agent.txt`, { method: "PUT", body: "written by an agent" });
    expect(put.status).toBe(200);
    await files.getByText("notes/agent.txt").waitFor({ timeout: 10_000 });
    expect(await agent(`/api/projects/${slug}/files/notes/agent.txt`, { method: "DELETE" })).toMatchObject({ status: 200 });
    await files.getByText("notes/agent.txt").waitFor({ state: "detached", timeout: 10_000 });
    expect(await stillSamePage()).toBe(true);
  });

  /**
   * Starts a render through the API with the person's token (never through the page); its state as answered. Every
   * render here is of the same files and options, so each after the first asks `force`: the render cache would answer
   * it at once with a copy, and this file follows renders that run.
   */
  async function agentRenders(): Promise<{ id: string; filename: string; at: number }> {
    const started = await agent<{ id: string; status: string; filename: string }>(`/api/projects/${slug}/render`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ quality: "draft", force: true }),
    });
    expect(started.status).toBe(202);
    return { ...started.body, at: Date.now() };
  }

  /** Starts a render as an agent's MCP client does when it declares tasks: a task-augmented tools/call. */
  async function agentRendersAsTask(): Promise<{ id: string; filename: string; at: number }> {
    const client = new Client({ name: "dashboard-live", version: "1.0.0" }, { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${env.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const at = Date.now();
      const { task } = await client.request({ method: "tools/call", params: { name: "render", arguments: { slug, quality: "draft", force: true }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      expect(task.status).toBe("working");
      const id = task.taskId.replace(/^render\./, "");
      const state = await agent<{ filename: string }>(`/api/renders/${id}`);
      expect(state.status).toBe(200);
      return { id, filename: state.body.filename, at };
    } finally {
      await client.close();
    }
  }

  /** The page shows the render in progress (its status and its log from the render's own stream); how long after
   * the POST that took. */
  async function seenInProgress(started: { filename: string; at: number }): Promise<number> {
    const status = page.locator(`[data-testid=render-status]:is([data-status=queued], [data-status=rendering])`);
    await status.waitFor({ state: "attached", timeout: 5000 });
    await page.getByTestId("render-log").filter({ hasText: `→ ${started.filename}` }).waitFor({ state: "attached", timeout: 5000 });
    return Date.now() - started.at;
  }

  it("follows a render the agent starts and ends it with a toast whose link downloads the video", async () => {
    const started = await agentRenders();
    // The page stays on the Files tab: the render streams in the background and the toast comes to wherever one is.
    const latency = await seenInProgress(started);
    console.log(`render started through the API shown in progress after ${latency} ms`);
    expect(latency).toBeLessThan(2500);
    // Its progress: the bar moves off 0 while it renders (frames counted by the node, streamed to the page).
    await expect.poll(async () => Number(await page.getByTestId("render-progress").getAttribute("aria-valuenow")), { timeout: 120_000 }).toBeGreaterThan(0);
    const toast = page.getByTestId("toast").filter({ hasText: started.filename });
    await toast.filter({ hasText: "Render finished" }).waitFor({ timeout: 240_000 });
    await page.getByRole("tab", { name: "Render" }).click();
    expect(await page.getByTestId("render-status").getAttribute("data-status")).toBe("done");
    // Announced by the project's stream and ended on the render's own: one toast all the same.
    expect(await toast.count()).toBe(1);
    const href = (await toast.getByTestId("toast-download").getAttribute("href")) ?? "";
    expect(href).toBe(`/renders/${started.filename}?download`);
    // The link works with the page's own cookie, as a click would use it.
    const download = await page.request.get(`${env.url}${href}`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/attachment/);
    expect((await download.body()).subarray(4, 8).toString("latin1")).toBe("ftyp");
    // The renders list picked it up too, and all of it without a reload.
    await page.getByTestId("renders").getByText(started.filename, { exact: true }).waitFor();
    expect(await stillSamePage()).toBe(true);
    await shoot(page, shots, "live-01-render-toast");
  }, 300_000);

  it("follows the agent's next render, started as an MCP task, on the same page, and one that started while the page's stream was down", async () => {
    const second = await agentRendersAsTask();
    const latency = await seenInProgress(second);
    console.log(`the next render shown in progress after ${latency} ms`);
    expect(latency).toBeLessThan(2500);
    // A render this short (its segments carried from the first) may end before its own stream catches up with the
    // project's: one toast all the same.
    const secondToast = page.getByTestId("toast").filter({ hasText: second.filename }).filter({ hasText: "Render finished" });
    await secondToast.waitFor({ timeout: 240_000 });
    await page.getByTestId("renders").getByText(second.filename, { exact: true }).waitFor();
    expect(await secondToast.count()).toBe(1);

    // The project's stream breaks; a render started before it reopens is picked up from its first event.
    expect(await page.evaluate(() => (window as unknown as { __dropProjectStreams: () => number }).__dropProjectStreams())).toBe(1);
    const third = await agentRenders();
    await page.locator(`[data-testid=render-log]`).filter({ hasText: `→ ${third.filename}` }).waitFor({ state: "attached", timeout: 10_000 });
    const thirdToast = page.getByTestId("toast").filter({ hasText: third.filename }).filter({ hasText: "Render finished" });
    await thirdToast.waitFor({ timeout: 240_000 });
    await page.getByTestId("renders").getByText(third.filename, { exact: true }).waitFor();
    expect(await thirdToast.count()).toBe(1);
    expect(await page.getByTestId("render-status").getAttribute("data-status")).toBe("done");
    expect(await stillSamePage()).toBe(true);
  }, 600_000);

  it("uses the latest render's poster frame as the thumbnail, then a newer snapshot", async () => {
    await page.getByRole("link", { name: "← All projects" }).first().click();
    const thumb = page.getByTestId("projects").locator("[data-thumb]").first();
    await thumb.waitFor();
    // The render's poster image (issue 34), which the render node made from the video: a picture, not just a box.
    expect(await thumb.getAttribute("data-thumb")).toBe("poster");
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
    await shoot(page, shots, "live-02-grid-render-poster");

    const snap = await agent(`/api/projects/${slug}/snapshot`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ frames: 2 }) });
    expect(snap.status).toBe(200);
    await page.reload();
    const img = page.getByTestId("projects").locator("img[data-thumb=snapshot]").first();
    await img.waitFor();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    expect(await img.getAttribute("src")).toMatch(new RegExp(`^${env.contentUrl}/c/[^/]+/snapshots/frame-`));
  }, 120_000);

  it("logged no console errors", () => {
    expect(problems).toEqual([]);
  });
});
