// End to end for the browser endpoints: the real Worker (wrangler dev) and a real render node with Chromium.
// Snapshots, check, preview (with reload on a file PUT) and the /play page (a redirect to the sandboxed player on
// the content origin) driven in headless Chromium.
import { readFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactSheetLayout } from "../../core/browser/contact-sheet-layout.ts";
import { BASE_FLAGS } from "../../render-node/src/browser/launch-capture-browser.ts";
import { resolveChrome, resolveFfmpeg } from "../../render-node/src/system/resolve-binaries.ts";
import { runTool } from "../../render-node/src/system/run-tool.ts";
import { BROKEN_HTML } from "../../render-node/test/broken-project.ts";
import { DECOY_ERROR, FINDING_PROJECT } from "../../render-node/test/finding-project.ts";
import { CANVAS, indexHtml, SUB_HTML } from "../../render-node/test/make-test-project.ts";
import { pngSize, readPngPixel } from "../../render-node/test/read-png.ts";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { preparedDataDir } from "../studio-data.ts";
import { callStudio } from "./studio-calls.ts";

let studio: RunningStudio;
const PREVIEW_IDLE_MS = 3_000;
let token = "";
let cookie = "";
let browser: Browser | null = null;

function call(method: string, path: string, body?: unknown) {
  return callStudio(studio.url, token, method, path, body);
}

type Snapshot = { path: string; size: number; url: string };
type Finding = { code: string; severity: string; selector?: string; time?: number; box?: unknown; file: string; message: string };
type Section = { ok: boolean; errorCount: number; warningCount: number; findings: Finding[] };

beforeAll(async () => {
  const work = await mkdtemp(join(tmpdir(), "studio-e2e-browser-"));
  let nodeUp: () => void = () => {};
  const nodeStarted = new Promise<void>((r) => (nodeUp = r));
  studio = await startStudio({
    port: 20_000 + Math.floor(Math.random() * 2000),
    dataDir: await preparedDataDir(join(work, "data")), prepared: true,
    // Previews listen on their default interface (loopback); an idle one stops after 3 s here (10 min by default).
    nodeEnv: { PREVIEW_IDLE_MS: String(PREVIEW_IDLE_MS) },
    log: (line) => {
      if (line.includes("[node]") && line.includes("render node")) nodeUp();
    },
  });
  // Browser endpoints answer 503 until a node has asked for work: wait for its first claim.
  await nodeStarted;
  await new Promise((r) => setTimeout(r, 1000));
  const login = await fetch(`${studio.url}/auth/dev/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "e2e-browser" }),
  });
  token = ((await login.json()) as { token: string }).token;
  cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  expect((await call("POST", "/api/projects", { name: "Shots", html: indexHtml(2, 1) })).status).toBe(201);
  expect((await call("PUT", "/api/projects/shots/files/compositions/sub.html", SUB_HTML)).status).toBe(200);
  const tone = join(work, "tone.wav");
  await runTool(resolveFfmpeg().ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", tone], new AbortController().signal).done;
  const wav = await readFile(tone);
  const put = await fetch(`${studio.url}/api/projects/shots/files/assets/tone.wav`, { method: "PUT", headers: { Authorization: `Bearer ${token}` }, body: wav });
  expect(put.status).toBe(200);
  expect((await call("POST", "/api/projects", { name: "Broken", html: BROKEN_HTML })).status).toBe(201);
  expect((await call("POST", "/api/projects", { name: "Findings", html: FINDING_PROJECT["index.html"] })).status).toBe(201);
  expect((await call("PUT", "/api/projects/findings/files/compositions/intro.html", FINDING_PROJECT["compositions/intro.html"])).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await studio?.stop();
});

describe("snapshot", () => {
  it("writes PNGs of the real size with the box where GSAP puts it, and a contact sheet sized by the frame count", async () => {
    const res = await call("POST", "/api/projects/shots/snapshot", { at: [1], end: false });
    const body = (await res.json()) as { ok: boolean; snapshots: Snapshot[]; log: string[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.snapshots.map((s) => s.path)).toEqual(["snapshots/frame-01-1.000s.png", "snapshots/contact-sheet.png"]);
    expect(body.log.some((l) => l.includes("capturing frame 1/1"))).toBe(true);
    const frame = await fetch(body.snapshots[0]!.url, { headers: { Authorization: `Bearer ${token}` } });
    expect(frame.headers.get("Content-Type")).toBe("image/png");
    const png = Buffer.from(await frame.arrayBuffer());
    expect(png.length).toBe(body.snapshots[0]!.size);
    expect(pngSize(png)).toEqual(CANVAS);
    const red = readPngPixel(png, 120, 40);
    expect(red[0]).toBeGreaterThan(200);
    expect(red[1]).toBeLessThan(50);
    const sheet = Buffer.from(await (await fetch(body.snapshots[1]!.url, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer());
    const layout = contactSheetLayout(1, CANVAS.width, CANVAS.height);
    expect(pngSize(sheet)).toEqual({ width: layout.width, height: layout.height });
  });

  it("clears snapshots/ on every call: the default run leaves 5 frames, the end frame and the sheet", async () => {
    const res = await call("POST", "/api/projects/shots/snapshot", {});
    const body = (await res.json()) as { snapshots: Snapshot[] };
    expect(body.snapshots).toHaveLength(7);
    const files = (await (await call("GET", "/api/projects/shots/files")).json()) as { files: { path: string; type: string }[] };
    const shots = files.files.filter((f) => f.path.startsWith("snapshots/") && f.type === "file").map((f) => f.path);
    expect(shots.sort()).toEqual(body.snapshots.map((s) => s.path).sort());
    expect(shots).not.toContain("snapshots/frame-01-1.000s.png");
    const sheet = Buffer.from(await (await fetch(body.snapshots.at(-1)!.url, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer());
    const layout = contactSheetLayout(6, CANVAS.width, CANVAS.height);
    expect(pngSize(sheet)).toEqual({ width: layout.width, height: layout.height });
  });
});

describe("check", () => {
  it("passes a clean composition", async () => {
    const res = await call("POST", "/api/projects/shots/check", {});
    const body = (await res.json()) as { ok: boolean; exitCode: number; result: { lint: Section; runtime: Section; layout: Section & { times: number[] } } };
    expect(res.status).toBe(200);
    expect(body.result.runtime.findings).toEqual([]);
    expect(body.result.layout.findings).toEqual([]);
    expect(body.result.layout.times).toHaveLength(9);
    expect(body).toMatchObject({ ok: true, exitCode: 0 });
  });

  it("reports the planted console error, missing asset, overflowing text and off-canvas element", async () => {
    const res = await call("POST", "/api/projects/broken/check", { at: [0.5] });
    const body = (await res.json()) as { ok: boolean; exitCode: number; result: { runtime: Section; layout: Section } };
    expect(body).toMatchObject({ ok: false, exitCode: 1 });
    const runtime = body.result.runtime.findings.map((f) => f.code);
    expect(runtime).toEqual(expect.arrayContaining(["console-error", "missing-asset"]));
    const layout = body.result.layout.findings;
    expect(layout.find((f) => f.code === "text-overflow")).toMatchObject({ selector: "#title", time: 0.5, box: expect.any(Object) });
    expect(layout.find((f) => f.code === "off-canvas")).toMatchObject({ selector: "#stray", time: 0.5 });
    // Layout findings are warnings: strict is what makes them fail on their own.
    expect(body.result.layout.ok).toBe(true);
    const strict = (await (await call("POST", "/api/projects/broken/check", { at: [0.5], strict: true })).json()) as { result: { layout: Section } };
    expect(strict.result.layout.ok).toBe(false);
  });
});

describe("findings raised in the page", () => {
  it("reach the check response as data: code, file, selector and time", async () => {
    const res = await call("POST", "/api/projects/findings/check", { at: [0.75] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; result: { runtime: Section } };
    expect(body.ok).toBe(false);
    expect(body.result.runtime.findings).toEqual(expect.arrayContaining([
      { code: "page-error", severity: "error", file: "compositions/intro.html", selector: '[data-composition-id="intro"]', message: `script error in compositions/intro.html: Error: ${DECOY_ERROR}` },
      { code: "page-error", severity: "error", file: "compositions/intro.html", time: 0.75, message: 'script error in compositions/intro.html while seeking timeline "intro": Error: callback broke' },
      expect.objectContaining({ code: "missing-asset", severity: "error", file: "index.html", message: "missing asset: assets/not-uploaded.png (referenced by index.html) is not in the project" }),
    ]));
    // The decoy wording made no missing-asset finding of its own.
    expect(body.result.runtime.findings.filter((f) => f.code === "missing-asset")).toHaveLength(1);
  });

  it("reach a snapshot's log as one readable line each", async () => {
    const res = await call("POST", "/api/projects/findings/snapshot", { at: [0.25], end: false });
    const body = (await res.json()) as { log: string[] };
    expect(body.log).toContain(`finding: script error in compositions/intro.html: Error: ${DECOY_ERROR}`);
    expect(body.log).toContain("finding: missing asset: assets/not-uploaded.png (referenced by index.html) is not in the project");
  });
});

async function nextEvent(reader: ReadableStreamDefaultReader<string>, name: string, timeoutMs: number): Promise<boolean> {
  let buffer = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
    if (!chunk || chunk.done) return false;
    buffer += chunk.value;
    if (buffer.includes(`event: ${name}`)) return true;
  }
  return false;
}

/** Local addresses listening on `port`, from /proc/net/tcp and tcp6 (hex, as the kernel writes them). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) =>
    readFileSync(file, "utf8").split("\n").slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A")
      .map((fields) => fields[1]!.split(":")[0]!),
  );
}

async function portClosed(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await fetch(url).then(() => true, () => false))) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

type PreviewState = { running: boolean; port: number; url: string };

describe("preview", () => {
  it("serves the composition with the player under its secret, on loopback only, reloads after a file PUT, and stops on DELETE", async () => {
    const res = await call("POST", "/api/projects/shots/preview");
    const state = (await res.json()) as PreviewState;
    expect(res.status, JSON.stringify(state)).toBe(200);
    expect(state.running).toBe(true);
    expect(state.port).toBeGreaterThanOrEqual(3002);
    // The content host (CONTENT_URL is http://localhost:<port> here), the port, and the preview's secret.
    const match = new RegExp(`^http://localhost:${state.port}/([A-Za-z0-9_-]{43})/$`).exec(state.url);
    expect(match, state.url).not.toBeNull();
    const secret = match![1]!;
    expect(await (await call("GET", "/api/projects/shots/preview")).json()).toEqual(state);
    const detail = (await (await call("GET", "/api/projects/shots")).json()) as { project: { preview: unknown } };
    expect(detail.project.preview).toEqual(state);
    // Bound to the loopback interface only (127.0.0.1 = 0100007F), nothing on other addresses or IPv6.
    expect(listeningAddresses(state.port)).toEqual(["0100007F"]);

    // Without the secret, or with a wrong one, every path is the same bare 404: no listing, no hint.
    const origin = `http://127.0.0.1:${state.port}`;
    const wrong = secret.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    for (const path of ["/", "/index.html", "/__studio/events", "/__studio/runtime.js", `/${wrong}/`, `/${wrong}/index.html`, `/${secret.slice(0, -1)}/`, `/x/${secret}/`]) {
      const denied = await fetch(`${origin}${path}`);
      expect(denied.status, path).toBe(404);
      expect(await denied.text(), path).toBe("not found");
    }

    const served = await fetch(state.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("referrer-policy")).toBe("no-referrer");
    const page = await served.text();
    expect(page).toContain('data-composition-id="main"');
    expect(page).toContain(`/${secret}/__studio/player.js`);
    expect(page).toContain(`/${secret}/__studio/gsap/3.14.2/gsap.min.js`);
    expect((await fetch(`${state.url}compositions/sub.html`)).status).toBe(200);
    expect((await fetch(`${state.url}__studio/runtime.js`)).status).toBe(200);

    const events = await fetch(`${state.url}__studio/events`);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    await call("PUT", "/api/projects/shots/files/compositions/sub.html", SUB_HTML.replace("#00ff00", "#00ee00"));
    expect(await nextEvent(reader, "reload", 10_000)).toBe(true);
    expect(await (await fetch(`${state.url}compositions/sub.html`)).text()).toContain("#00ee00");
    await reader.cancel();

    expect(await (await call("DELETE", "/api/projects/shots/preview")).json()).toEqual({ stopped: true });
    expect(await (await call("GET", "/api/projects/shots/preview")).json()).toEqual({ running: false });
    expect(await portClosed(state.url, 10_000)).toBe(true);
  });

  it(`stops by itself after PREVIEW_IDLE_MS (${PREVIEW_IDLE_MS / 1000} s here) without a request under its secret`, async () => {
    const state = (await (await call("POST", "/api/projects/shots/preview")).json()) as PreviewState;
    expect(state.running).toBe(true);
    const origin = `http://127.0.0.1:${state.port}`;
    expect((await fetch(state.url)).status).toBe(200);
    const lastRequest = Date.now();
    // Requests without the secret do not keep it alive.
    const poke = setInterval(() => void fetch(`${origin}/`).catch(() => {}), 1000);
    let stoppedAt = 0;
    try {
      while (Date.now() - lastRequest < PREVIEW_IDLE_MS + 15_000) {
        const now = (await (await call("GET", "/api/projects/shots/preview")).json()) as { running: boolean };
        if (!now.running) {
          stoppedAt = Date.now();
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      clearInterval(poke);
    }
    expect(stoppedAt, "the preview never stopped").toBeGreaterThan(0);
    expect(stoppedAt - lastRequest).toBeGreaterThanOrEqual(PREVIEW_IDLE_MS);
    expect(stoppedAt - lastRequest).toBeLessThan(PREVIEW_IDLE_MS + 5000);
    expect(await portClosed(state.url, 5000)).toBe(true);
  }, 60_000);
});

describe("/play", () => {
  it("sends a signed-out visitor a 401 page", async () => {
    const res = await fetch(`${studio.url}/play/shots`);
    expect(res.status).toBe(401);
    expect(res.headers.get("Content-Type")).toContain("text/html");
  });

  it("plays root and sub-composition timelines from one clock, offline, driven by keyboard and scrubbing", async () => {
    browser = await puppeteer.launch({ executablePath: await resolveChrome(), headless: "shell", args: BASE_FLAGS });
    const page = await browser.newPage();
    await page.setViewport({ width: 800, height: 600 });
    const origin = new URL(studio.url);
    const content = studio.contentUrl;
    await page.setCookie({ name: cookie.split("=")[0]!, value: cookie.split("=").slice(1).join("="), domain: origin.hostname, path: "/" });
    // No internet: anything not served by the studio is refused, so GSAP must come from the Worker.
    const outside: string[] = [];
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = request.url();
      if (url.startsWith(`${studio.url}/`) || url.startsWith(`${content}/`) || url.startsWith("data:")) void request.continue();
      else {
        outside.push(url);
        void request.abort();
      }
    });
    // /play/<slug> on the API origin redirects to a capability link on the content origin, where the page plays
    // sandboxed: an opaque origin with no cookie, loading its sub-composition and GSAP over CORS.
    const response = await page.goto(`${studio.url}/play/shots`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(page.url()).toMatch(new RegExp(`^${content}/c/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+/$`));
    await page.waitForSelector("html[data-studio-player-ready]", { timeout: 20_000 });
    expect(outside).toEqual([]);
    expect(await page.evaluate(() => self.origin)).toBe("null");
    const times = () =>
      page.evaluate(() => {
        const w = window as unknown as { __timelines: Record<string, { time(): number }>; __studioPlayer: { state(): { time: number; playing: boolean; loop: boolean; duration: number } } };
        return { main: w.__timelines.main!.time(), sub: w.__timelines.sub!.time(), player: w.__studioPlayer.state(), readout: document.querySelector("[data-studio-time]")?.textContent };
      });
    expect((await times()).player.duration).toBe(2);
    await page.keyboard.press("End");
    expect((await times()).main).toBeCloseTo(2, 3);
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    let t = await times();
    expect(t.main).toBeCloseTo(1, 3);
    expect(t.sub).toBeCloseTo(0, 3);
    // Scrub to 1.5 s: the sub-composition starts at 1 s, so its own timeline is at 0.5 s.
    await page.evaluate(() => {
      const range = document.querySelector<HTMLInputElement>("[data-studio-player] input[type=range]")!;
      range.value = "1.5";
      range.dispatchEvent(new Event("input"));
    });
    t = await times();
    expect(t.main).toBeCloseTo(1.5, 3);
    expect(t.sub).toBeCloseTo(0.5, 3);
    expect(t.readout).toBe("1.50 s / 2.00 s");
    const dotX = await page.evaluate(() => (window as unknown as { gsap: { getProperty(t: string, p: string): number } }).gsap.getProperty('[data-composition-id="sub"] .dot', "x"));
    expect(dotX).toBeCloseTo(100, 0);
    await page.keyboard.press("l");
    expect((await times()).player.loop).toBe(true);
    await page.keyboard.press("Space");
    await new Promise((r) => setTimeout(r, 400));
    t = await times();
    expect(t.player.playing || t.player.loop).toBe(true);
    await page.keyboard.press("Space");
    const paused = await times();
    expect(paused.player.playing).toBe(false);
    expect(paused.main).not.toBeCloseTo(1.5, 2);
  });
});
