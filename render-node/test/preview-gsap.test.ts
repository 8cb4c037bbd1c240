// A preview plays the composition on the GSAP release a render serves for its script URL (not always 3.14.2): in
// real Chromium with no internet, 3.12.5 from jsDelivr runs 3.12.5, an unshipped 3.13.4 from cdnjs runs 3.13.0 with
// the substitution in the player's bar, and the preview serves only shipped releases.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { BASE_FLAGS } from "../src/browser/launch-capture-browser.ts";
import { gsapDist } from "../src/browser/intercept-requests.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { servePreview } from "../src/browser-jobs/serve-preview.ts";

const composition = (gsapUrl: string) => `<!doctype html><html><head><script src="${gsapUrl}"></script>
<style>html, body { margin: 0; width: 320px; height: 180px; } #box { width: 20px; height: 20px; background: #fff; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="2" data-width="320" data-height="180"><div id="box"></div></div>
<script>window.__timelines = { main: gsap.timeline({ paused: true }).to("#box", { x: 200, duration: 2, ease: "none" }) };</script>
</body></html>`;

describe("preview GSAP", () => {
  it("runs the pinned release, or the nearest shipped one with the substitution shown, offline", async () => {
    const binaries = await resolveBinaries();
    const browser = await puppeteer.launch({ executablePath: binaries.chrome, headless: "shell", args: BASE_FLAGS });
    const secret = "s3cr3t-preview-gsap";
    try {
      for (const [url, version, notice] of [
        ["https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js", "3.12.5", null],
        ["https://cdnjs.cloudflare.com/ajax/libs/gsap/3.13.4/gsap.min.js", "3.13.0", "GSAP 3.13.4 requested (https://cdnjs.cloudflare.com/ajax/libs/gsap/3.13.4/gsap.min.js); served GSAP 3.13.0, the nearest release render nodes ship"],
      ] as const) {
        const dir = await mkdtemp(join(tmpdir(), "preview-gsap-"));
        await writeFile(join(dir, "index.html"), composition(url));
        const preview = await servePreview({ projectDir: dir, secret, firstPort: 3960 });
        try {
          const base = `http://127.0.0.1:${preview.port}/${secret}`;
          const page = await browser.newPage();
          const outside: string[] = [];
          await page.setRequestInterception(true);
          page.on("request", (request) => {
            if (request.url().startsWith(`${base}/`)) return void request.continue();
            outside.push(request.url());
            void request.abort();
          });
          await page.goto(`${base}/`, { waitUntil: "load" });
          await page.waitForSelector("html[data-studio-player-ready]", { timeout: 20_000 });
          await page.keyboard.press("End");
          const seen = await page.evaluate(() => {
            const w = window as unknown as { gsap: { version: string; getProperty(t: string, p: string): number } };
            return { version: w.gsap.version, x: w.gsap.getProperty("#box", "x"), notice: document.documentElement.getAttribute("data-studio-player-notice") };
          });
          expect(seen, url).toEqual({ version, x: 200, notice });
          expect(outside, url).toEqual([]);
          // The very file of that release's package.
          const served = await fetch(`${base}/__studio/gsap/${version}/gsap.min.js`);
          expect(await served.text()).toBe(await readFile(join(gsapDist(version), "gsap.min.js"), "utf8"));
          for (const path of ["/__studio/gsap/3.13.4/gsap.min.js", "/__studio/gsap/3.12.5/..%2F..%2Fpackage.json", "/__studio/gsap/3.12.5/a/gsap.min.js"]) {
            expect((await fetch(`${base}${path}`)).status, path).toBe(404);
          }
          await page.close();
        } finally {
          await preview.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 90_000);
});
