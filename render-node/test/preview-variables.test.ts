// A preview takes render-time variables as HyperFrames' preview does, from the page URL's ?variables=<json>: the
// page in a real browser reads them through getVariables() and the declared CSS property; a malformed value is a
// 400 naming what is wrong, and a value cannot close the script it is put in.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { BASE_FLAGS } from "../src/browser/launch-capture-browser.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { servePreview } from "../src/browser-jobs/serve-preview.ts";

const INDEX = `<!doctype html>
<html data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Default title"},{"id":"accent","type":"color","label":"Accent","default":"#0000ff"}]'>
<head><meta charset="utf-8"><script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>html, body { margin: 0; width: 320px; height: 180px; } #box { width: 20px; height: 20px; background: var(--accent); }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="1" data-width="320" data-height="180">
  <div id="box"></div><h1 id="title"></h1>
  <script>
    document.getElementById("title").textContent = window.__hyperframes.getVariables().title;
    window.__timelines = { main: gsap.timeline({ paused: true }).to({}, { duration: 1 }) };
  </script>
</div></body></html>`;

describe("preview variables", () => {
  it("?variables= reaches getVariables() and the CSS property; without it the defaults show; a bad value is a 400", async () => {
    const binaries = await resolveBinaries();
    const dir = await mkdtemp(join(tmpdir(), "preview-vars-"));
    await writeFile(join(dir, "index.html"), INDEX);
    const secret = "s3cr3t-preview-variables";
    const preview = await servePreview({ projectDir: dir, secret, firstPort: 3950 });
    const browser = await puppeteer.launch({ executablePath: binaries.chrome, headless: "shell", args: BASE_FLAGS });
    try {
      const base = `http://127.0.0.1:${preview.port}/${secret}/`;
      const read = async (url: string) => {
        const page = await browser.newPage();
        await page.goto(url, { waitUntil: "load" });
        await page.waitForFunction(() => document.getElementById("title")?.textContent !== "", { timeout: 10_000 });
        const seen = await page.evaluate(() => ({
          title: document.getElementById("title")!.textContent,
          accent: getComputedStyle(document.getElementById("box")!).backgroundColor,
          variables: (window as unknown as { __hyperframes: { getVariables(): unknown } }).__hyperframes.getVariables(),
        }));
        await page.close();
        return seen;
      };
      const given = { title: "Q4 </script><b>Report</b>", accent: "#ff0000" };
      expect(await read(`${base}?variables=${encodeURIComponent(JSON.stringify(given))}`)).toEqual({
        title: given.title, accent: "rgb(255, 0, 0)", variables: given,
      });
      expect(await read(base)).toEqual({ title: "Default title", accent: "rgb(0, 0, 255)", variables: { title: "Default title", accent: "#0000ff" } });
      const bad = await fetch(`${base}?variables=${encodeURIComponent("[1]")}`);
      expect(bad.status).toBe(400);
      expect(await bad.text()).toBe('invalid variables: give a JSON object keyed by variable id, such as {"title":"Q4 Report"}');
      expect((await fetch(`${base}?variables=${encodeURIComponent("{oops")}`)).status).toBe(400);
    } finally {
      await browser.close();
      await preview.close();
    }
  }, 60_000);
});
