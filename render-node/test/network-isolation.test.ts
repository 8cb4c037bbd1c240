// Hostile compositions (render-node/test/hostile/, one per channel) against real Chromium: loopback canaries stand
// for the internet, the studio and a STUN/TURN server. In a plain page the same code reaches them (so the test can
// fail); each protection layer alone stops what it claims to; and the real pipeline (the page that snapshots and
// checks open, a render, a check) lets nothing out at all and names every attempt in its log or findings.
import { readdir, readFile, mkdtemp, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Finding } from "../../core/protocol/finding.ts";
import { CONNECT_CHANNEL as CONNECT } from "../src/browser/blocked-attempt.ts";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { BASE_FLAGS } from "../src/browser/launch-capture-browser.ts";
import { startNetworkSink } from "../src/browser/network-sink.ts";
import { networkIsolationFlags } from "../src/browser/network-policy.ts";
import { openComposition } from "../src/browser/open-composition.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { serveProject } from "../src/browser/serve-project.ts";
import { contentTypeFor } from "../../core/http/content-type.ts";
import { takeSnapshots } from "../src/browser-jobs/take-snapshots.ts";
import { startCanaries, type CanaryName, type Canaries } from "./network-canaries.ts";

const HOSTILE_DIR = fileURLToPath(new URL("./hostile/", import.meta.url));

interface Case {
  /** The canary the same code reaches in a plain page; null where headless shell never makes the attempt at all. */
  reaches: CanaryName | null;
  /** The blocked attempt the pipeline logs: its channel, and a piece of its target ("<canary>" is filled in). */
  finding?: { channel: string; target: string };
}

const CASES: Record<string, Case> = {
  "fetch": { reaches: "tcp", finding: { channel: CONNECT, target: "<tcp>/fetch?" } },
  "xhr": { reaches: "tcp", finding: { channel: CONNECT, target: "<tcp>/xhr" } },
  "websocket": { reaches: "tcp", finding: { channel: "websocket", target: "ws://<tcp>/websocket" } },
  "webrtc-stun": { reaches: "udp", finding: { channel: "webrtc", target: "stun:<udp>" } },
  "webrtc-turn-udp": { reaches: "udp", finding: { channel: "webrtc", target: "turn:<udp>?transport=udp" } },
  "webrtc-turn-tcp": { reaches: "tcp", finding: { channel: "webrtc", target: "turn:<tcp>?transport=tcp" } },
  "blank-iframe-webrtc": { reaches: "udp", finding: { channel: "webrtc", target: "stun:<udp>" } },
  "eventsource": { reaches: "tcp", finding: { channel: CONNECT, target: "<tcp>/eventsource" } },
  "beacon": { reaches: "tcp", finding: { channel: CONNECT, target: "<tcp>/beacon" } },
  "ping": { reaches: "tcp", finding: { channel: CONNECT, target: "<tcp>/ping" } },
  "webtransport": { reaches: "udp", finding: { channel: CONNECT, target: "https://<udp>/webtransport" } },
  // Headless shell opens no speculative connections; were it to, they would go to the refusing proxy.
  "link-preconnect": { reaches: null },
  "link-dns-prefetch": { reaches: null },
  "link-prefetch": { reaches: "tcp", finding: { channel: "prefetch", target: "<tcp>/prefetch" } },
  "link-preload": { reaches: "tcp", finding: { channel: "image", target: "<tcp>/preload.png" } },
  "form-post": { reaches: "tcp", finding: { channel: "form submission", target: "<tcp>/form" } },
  "window-open": { reaches: "tcp", finding: { channel: "popup (window.open)", target: "<tcp>/popup" } },
  "service-worker": { reaches: "tcp", finding: { channel: "worker", target: "/hostile-sw.js" } },
  "worker": { reaches: "tcp", finding: { channel: "worker", target: "blob:http://127.0.0.1:" } },
  "img-other-port": { reaches: "studio", finding: { channel: "image", target: "<studio>/img.png" } },
  "css-url-other-port": { reaches: "studio", finding: { channel: "image", target: "<studio>/css-url.png" } },
  "iframe-other-port": { reaches: "studio", finding: { channel: "iframe", target: "<studio>" } },
  "script-other-port": { reaches: "studio", finding: { channel: "script", target: "<studio>/script.js" } },
  "fetch-studio": { reaches: "studio", finding: { channel: CONNECT, target: "<studio>/api/projects" } },
  "font-face": { reaches: "tcp", finding: { channel: "font", target: "<tcp>/font.woff2" } },
  "dynamic-import": { reaches: "tcp", finding: { channel: "script", target: "<tcp>/module.js" } },
  "blank-iframe": { reaches: "tcp", finding: { channel: "websocket", target: "ws://<tcp>/blank-iframe" } },
  // No canary can stand in for a CDN host here (no DNS, no internet): the finding shows interception refused it.
  "cdn-not-gsap": { reaches: null, finding: { channel: "script", target: "https://cdn.jsdelivr.net/npm/leak@1.0.0/x.js?seen=" } },
  "location": { reaches: "tcp", finding: { channel: "navigation", target: "<tcp>/location" } },
  "meta-refresh": { reaches: "tcp", finding: { channel: "navigation", target: "<tcp>/meta-refresh" } },
};

/** What the page's CSP (and sandbox) cannot stop on its own: the Chromium switches and interception do. */
const CSP_GAPS = new Set(["webrtc-stun", "webrtc-turn-udp", "webrtc-turn-tcp", "blank-iframe-webrtc", "location", "meta-refresh"]);

const names = Object.keys(CASES);
const binaries = await resolveBinaries();
const signal = new AbortController().signal;
let canaries: Canaries;
let projectDir: string;

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (condition()) return true;
  return condition();
}

function targetOf(template: string): string {
  return template.replace(/<(tcp|studio|udp)>/g, (_, name: CanaryName) => `127.0.0.1:${canaries.ports[name]}`);
}

/** Whether a request-blocked finding (as data, not a log line) names the channel and the target. */
function hasFinding(findings: Finding[], expected: { channel: string; target: string }): boolean {
  const channel = `blocked network access: ${expected.channel} to `;
  const target = targetOf(expected.target);
  return findings.some((finding) => finding.code === "request-blocked" && finding.message.startsWith(channel) && finding.message.slice(channel.length).includes(target));
}

/** The project's files as they are, without CSP: the page a composition would be without the protections. */
async function servePlain(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const file = join(dir, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    stat(file)
      .then(async (info) => {
        if (!info.isFile()) throw new Error("not a file");
        res.writeHead(200, { "content-type": contentTypeFor(file) });
        res.end(await readFile(file));
      })
      .catch(() => {
        res.writeHead(404);
        res.end();
      });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

/** Opens each composition in a fresh page of `browser`; `settle` decides when its attempts are over. */
async function visit(browser: Browser, url: (name: string) => string, list: string[], settle: (name: string) => Promise<void>): Promise<Record<string, string[]>> {
  const hits: Record<string, string[]> = {};
  for (const name of list) {
    canaries.hits.length = 0;
    const page = await browser.newPage();
    await page.goto(url(name), { waitUntil: "load", timeout: 10_000 }).catch(() => {});
    await settle(name);
    hits[name] = canaries.hits.map((hit) => `${hit.canary}: ${hit.what}`);
    for (const open of await browser.pages()) await Promise.race([open.close().catch(() => {}), sleep(2000)]);
  }
  canaries.hits.length = 0;
  return hits;
}

function launchPlain(args: string[] = []): Promise<Browser> {
  return puppeteer.launch({ executablePath: binaries.chrome, headless: "shell", args: [...BASE_FLAGS, ...args] });
}

/** A page left by a hostile composition (a popup, a service worker) must not hold the test: kill after 5 s. */
async function closeBrowser(browser: Browser): Promise<void> {
  const closed = await Promise.race([browser.close().then(() => true, () => false), sleep(5000).then(() => false)]);
  if (!closed) browser.process()?.kill("SIGKILL");
}

beforeAll(async () => {
  canaries = await startCanaries();
  projectDir = await mkdtemp(join(tmpdir(), "studio-hostile-"));
  for (const file of await readdir(HOSTILE_DIR)) {
    await writeFile(join(projectDir, file), canaries.fill(await readFile(join(HOSTILE_DIR, file), "utf8")));
  }
});

afterAll(async () => {
  await canaries?.close();
});

describe("the hostile corpus", () => {
  it("has one expectation for every composition in test/hostile/", async () => {
    const files = (await readdir(HOSTILE_DIR)).filter((f) => f.endsWith(".html")).map((f) => f.slice(0, -5));
    expect(files.sort()).toEqual([...names].sort());
  });

  it("positive control: in a plain Chromium page, without the protections, the same code reaches the canaries", async () => {
    const plain = await servePlain(projectDir);
    const browser = await launchPlain();
    try {
      const reaching = names.filter((name) => CASES[name]!.reaches);
      const hits = await visit(browser, (name) => `${plain.origin}/${name}.html`, reaching, async (name) => {
        await until(() => canaries.hits.some((hit) => hit.canary === CASES[name]!.reaches), 5000);
      });
      for (const name of reaching) {
        expect(hits[name]!.some((hit) => hit.startsWith(`${CASES[name]!.reaches}:`)), `${name} should reach the ${CASES[name]!.reaches} canary`).toBe(true);
      }
    } finally {
      await closeBrowser(browser);
      await plain.close();
    }
  });
});

describe("each layer alone", () => {
  it("the page's CSP and sandbox (no Chromium switches, no interception) stop everything but WebRTC and navigation", async () => {
    const server = await serveProject(projectDir);
    const browser = await launchPlain();
    try {
      const stopped = names.filter((name) => !CSP_GAPS.has(name));
      const hits = await visit(browser, (name) => server.pageUrl(`${name}.html`, "render"), stopped, () => sleep(300));
      expect(hits).toEqual(Object.fromEntries(stopped.map((name) => [name, []])));
    } finally {
      await closeBrowser(browser);
      await server.close();
    }
  });

  it("the Chromium switches (no CSP, no interception) stop every channel, loopback ports and WebRTC included", async () => {
    const plain = await servePlain(projectDir);
    const proxied: string[] = [];
    const sink = await startNetworkSink((attempt) => proxied.push(attempt.target));
    const browser = await launchPlain(networkIsolationFlags({ allowOrigin: plain.origin, sinkPort: sink.port }));
    try {
      const hits = await visit(browser, (name) => `${plain.origin}/${name}.html`, names, () => sleep(300));
      expect(hits).toEqual(Object.fromEntries(names.map((name) => [name, []])));
      // What got past the page went to the refusing proxy instead, unresolved: e.g. the TURN server over TCP, the
      // popup, and a CDN host.
      expect(proxied).toContain(`127.0.0.1:${canaries.ports.tcp}`);
      expect(proxied).toContain(`http://127.0.0.1:${canaries.ports.tcp}/popup`);
      expect(proxied).toContain("cdn.jsdelivr.net:443");
    } finally {
      await closeBrowser(browser);
      await sink.close();
      await plain.close();
    }
  });
});

describe("the real pipeline: nothing reaches the canaries, and the log names each attempt", () => {
  let before = 0;
  beforeAll(() => {
    before = canaries.all.length;
  });
  beforeEach(() => {
    canaries.hits.length = 0;
  });

  it.each(names)("%s", async (name) => {
    const lines: string[] = [];
    const findings: Finding[] = [];
    const { finding } = CASES[name]!;
    // The page snapshots and checks open (beginFrame, as a snapshot captures).
    const opened = await openComposition({
      projectDir, chrome: binaries.chrome, composition: `${name}.html`, preferBeginFrame: true, signal, onLine: (l) => lines.push(l), onFinding: (f) => findings.push(f),
    });
    try {
      if (finding) await until(() => hasFinding(findings, finding), 5000);
      await sleep(250);
      // The composition is still the page: a refused navigation or popup did not replace it.
      expect(await opened.capture.page.evaluate(() => typeof (window as unknown as { __studio?: unknown }).__studio)).toBe("object");
    } finally {
      await opened.close();
    }
    expect(canaries.hits).toEqual([]);
    if (finding) expect(hasFinding(findings, finding), `findings should name ${finding.channel} to ${targetOf(finding.target)}:\n${findings.map((f) => f.message).join("\n")}`).toBe(true);
    // Chromium's own words for the refusals are not repeated as page console errors.
    expect(lines.filter((l) => l.startsWith("page console error:") && /Content Security Policy|sandboxed/.test(l))).toEqual([]);
  });

  // These two register a timeline, as a real composition does, so the blocked attempt is what the strict render fails on.
  it("a render finishes with the attempt as a finding; a strict render fails on it", async () => {
    const out = await mkdtemp(join(tmpdir(), "studio-hostile-out-"));
    const lines: string[] = [];
    const result = await renderProject({
      projectDir, outputPath: join(out, "ws.mp4"), composition: "websocket.html", concurrency: 1, binaries, signal, onLine: (l) => lines.push(l),
    });
    expect(result.frames).toBe(6);
    expect(result.findings).toContainEqual(expect.objectContaining({
      code: "request-blocked", message: `blocked network access: websocket to ws://127.0.0.1:${canaries.ports.tcp}/websocket (compositions cannot reach the network)`,
    }));
    expect(lines).toContain(`finding: blocked network access: websocket to ws://127.0.0.1:${canaries.ports.tcp}/websocket (compositions cannot reach the network)`);
    await expect(
      renderProject({ projectDir, outputPath: join(out, "rtc.mp4"), composition: "webrtc-stun.html", concurrency: 1, strict: true, binaries, signal }),
    ).rejects.toThrow(`blocked network access: webrtc to stun:127.0.0.1:${canaries.ports.udp} (compositions cannot reach the network); strict renders fail on it`);
    expect(canaries.hits).toEqual([]);
  });

  it("check reports the attempt as a request-blocked warning; a snapshot's log names it", async () => {
    // Check and snapshots open the project's index.html.
    const asIndex = async (name: string) => {
      const dir = await mkdtemp(join(tmpdir(), "studio-hostile-index-"));
      await writeFile(join(dir, "index.html"), await readFile(join(projectDir, `${name}.html`)));
      return dir;
    };
    const report = await checkComposition({ projectDir: await asIndex("fetch-studio"), chrome: binaries.chrome, options: {}, signal, onLine: () => {} });
    expect(report.runtime).toContainEqual(expect.objectContaining({
      code: "request-blocked",
      severity: "warning",
      file: "index.html",
      message: `blocked network access: ${CONNECT} to http://127.0.0.1:${canaries.ports.studio}/api/projects (compositions cannot reach the network)`,
      fixHint: expect.stringContaining("reference it by a relative path"),
    }));
    expect(report.runtime.filter((f) => f.code === "console-error")).toEqual([]);
    const log: string[] = [];
    await takeSnapshots({ projectDir: await asIndex("img-other-port"), chrome: binaries.chrome, options: { frames: 1, end: false }, signal, onLine: (l) => log.push(l) });
    expect(log).toContain(`finding: blocked network access: image to http://127.0.0.1:${canaries.ports.studio}/img.png (compositions cannot reach the network)`);
    expect(canaries.hits).toEqual([]);
  });

  it("nothing at all reached a canary while the pipeline ran (late arrivals included)", async () => {
    await sleep(250);
    expect(canaries.all.slice(before)).toEqual([]);
  });
});
