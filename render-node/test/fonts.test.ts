// Fonts in real Chromium, offline: a bundled family named without @font-face, a Google Fonts link for a bundled
// family, and a generic family all draw with the bundled web font (the same widths as an explicit @font-face to the
// same woff2), without any network attempt; a family nobody can supply is a finding, and fails a strict render.
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { googleStylesheetHash } from "../src/browser/bundled-fonts.ts";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { openComposition } from "../src/browser/open-composition.ts";
import { readFile } from "node:fs/promises";
import { renderProject } from "../src/render-project.ts";
import { servePreview } from "../src/browser-jobs/serve-preview.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";

const binaries = await resolveBinaries();
const signal = new AbortController().signal;
const require = createRequire(import.meta.url);
const fontFile = (pkg: string, file: string) => join(dirname(require.resolve(`@fontsource/${pkg}/package.json`)), "files", file);

const SAMPLE = "Hamburgefonstiv Quartz 0123";

function page(head: string, body: string, script = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8">${head}
<style>html, body { margin: 0; width: 640px; height: 360px; overflow: hidden; } span { font-size: 40px; white-space: nowrap; }</style>
</head><body>
<div data-composition-id="main" data-start="0" data-duration="1" data-width="640" data-height="360">${body}</div>
<script>window.__timelines = window.__timelines || {}; window.__timelines.main = { duration: () => 1, seek() {}, pause() {}, time: () => 0, totalDuration: () => 1 };${script}</script>
</body></html>`;
}

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fonts-"));
  await mkdir(join(dir, "assets"), { recursive: true });
  await copyFile(fontFile("inter", "inter-latin-400-normal.woff2"), join(dir, "assets/inter.woff2"));
  await copyFile(fontFile("montserrat", "montserrat-latin-400-normal.woff2"), join(dir, "assets/montserrat.woff2"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

// Reference faces under other names: the same woff2 files the studio bundles, declared by the page itself.
const REFERENCE = `<style>
@font-face { font-family: "RefInter"; src: url(assets/inter.woff2) format("woff2"); font-display: block; }
@font-face { font-family: "RefMontserrat"; src: url(assets/montserrat.woff2) format("woff2"); font-display: block; }
</style>`;

async function widths(dir: string, ids: string[]): Promise<{ widths: Record<string, number>; lines: string[] }> {
  const lines: string[] = [];
  const opened = await openComposition({ projectDir: dir, chrome: binaries.chrome, preferBeginFrame: false, signal, onLine: (line) => lines.push(line) });
  try {
    const measured = await opened.capture.page.evaluate(async (list: string[]) => {
      await document.fonts.ready;
      return Object.fromEntries(list.map((id) => [id, document.getElementById(id)!.getBoundingClientRect().width]));
    }, ids);
    return { widths: measured, lines };
  } finally {
    await opened.close();
  }
}

describe("fonts in Chromium, offline", () => {
  it("draws Inter (no @font-face), a Google Fonts Montserrat link and sans-serif with the bundled fonts, with no network attempt", async () => {
    const dir = await project({
      "index.html": page(
        `<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>
<link href="https://fonts.googleapis.com/css2?family=Montserrat:wght@400;700&amp;display=swap" rel="stylesheet">${REFERENCE}`,
        `<span id="inter" style="font-family: Inter">${SAMPLE}</span><br>
<span id="ref-inter" style="font-family: RefInter">${SAMPLE}</span><br>
<span id="montserrat" style="font-family: 'Montserrat', sans-serif">${SAMPLE}</span><br>
<span id="ref-montserrat" style="font-family: RefMontserrat">${SAMPLE}</span><br>
<span id="generic" style="font-family: sans-serif">${SAMPLE}</span><br>
<span id="fallback" style="font-family: 'Liberation Serif Nope', serif">${SAMPLE}</span>`,
      ),
    });
    const { widths: w, lines } = await widths(dir, ["inter", "ref-inter", "montserrat", "ref-montserrat", "generic", "fallback"]);
    expect(w.inter).toBeCloseTo(w["ref-inter"]!, 1);
    expect(w.montserrat).toBeCloseTo(w["ref-montserrat"]!, 1);
    // sans-serif leads with the bundled Inter, as HyperFrames draws it, whatever the machine's fonts are.
    expect(w.generic).toBeCloseTo(w["ref-inter"]!, 1);
    // The measurement can tell fonts apart: a serif fallback has another width.
    expect(Math.abs(w.fallback! - w["ref-inter"]!)).toBeGreaterThan(5);
    expect(lines.filter((line) => /blocked network access|googleapis|gstatic/.test(line))).toEqual([]);
    const fallbacks = lines.filter((line) => line.startsWith("finding: font fallback"));
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatch(/^finding: font fallback: "Liberation Serif Nope" in index\.html is not available /);
  });

  it("draws a weight and an italic HyperFrames takes from Google (Inter 600, italic) from the package, not synthesized", async () => {
    const dir = await project({
      "index.html": page(
        `<style>@font-face { font-family: "Ref600"; src: url(assets/inter-600.woff2) format("woff2"); font-weight: 600; font-display: block; }
@font-face { font-family: "RefItalic"; src: url(assets/inter-italic.woff2) format("woff2"); font-style: italic; font-display: block; }</style>`,
        `<span id="semi" style="font-family: Inter; font-weight: 600">${SAMPLE}</span><br><span id="ref600" style="font-family: Ref600; font-weight: 600">${SAMPLE}</span><br>
<span id="bold" style="font-family: Inter; font-weight: 700">${SAMPLE}</span><br>
<span id="upright" style="font-family: Inter">${SAMPLE}</span><br>
<span id="italic" style="font-family: Inter; font-style: italic">${SAMPLE}</span><br><span id="refitalic" style="font-family: RefItalic; font-style: italic">${SAMPLE}</span>`,
      ),
    });
    await copyFile(fontFile("inter", "inter-latin-600-normal.woff2"), join(dir, "assets/inter-600.woff2"));
    await copyFile(fontFile("inter", "inter-latin-400-italic.woff2"), join(dir, "assets/inter-italic.woff2"));
    const { widths: w } = await widths(dir, ["semi", "ref600", "bold", "upright", "italic", "refitalic"]);
    expect(w.semi).toBeCloseTo(w.ref600!, 1);
    expect(Math.abs(w.semi! - w.bold!)).toBeGreaterThan(2);
    expect(w.italic).toBeCloseTo(w.refitalic!, 1);
    // A synthesized oblique keeps the upright's advances; the real italic does not.
    expect(Math.abs(w.italic! - w.upright!)).toBeGreaterThan(1);
  });

  it("keeps the page's own @font-face for a bundled family name", async () => {
    // "Inter" declared by the page to be the Montserrat file: the page's face wins, the bundled one is not added.
    const dir = await project({
      "index.html": page(
        `<style>@font-face { font-family: "Inter"; src: url(assets/montserrat.woff2) format("woff2"); font-display: block; }</style>${REFERENCE}`,
        `<span id="inter" style="font-family: Inter">${SAMPLE}</span><br><span id="ref" style="font-family: RefMontserrat">${SAMPLE}</span>`,
      ),
    });
    const { widths: w } = await widths(dir, ["inter", "ref"]);
    expect(w.inter).toBeCloseTo(w.ref!, 1);
  });

  it("draws a non-bundled Google family from the stylesheet the Worker shipped with the job; without it, a finding", async () => {
    // As the Worker lists them: __studio/fonts/google/<sha256 of the URL>.css with local font URLs, and the files.
    const link = "https://fonts.googleapis.com/css2?family=Rubik+Mono+One&display=swap";
    const files = {
      "index.html": page(`<link href="${link.replace("&", "&amp;")}" rel="stylesheet">${REFERENCE}`, `<span id="rubik" style="font-family: 'Rubik Mono One'">${SAMPLE}</span><br><span id="ref" style="font-family: RefMontserrat">${SAMPLE}</span>`),
    };
    const shipped = await project({
      ...files,
      [`__studio/fonts/google/${googleStylesheetHash(link)}`]: `@font-face { font-family: 'Rubik Mono One'; font-weight: 400; src: url(/__studio/fonts/google/files/0123456789abcdef0123456789abcdef.woff2) format('woff2'); }`,
    });
    await mkdir(join(shipped, "__studio/fonts/google/files"), { recursive: true });
    await copyFile(fontFile("montserrat", "montserrat-latin-400-normal.woff2"), join(shipped, "__studio/fonts/google/files/0123456789abcdef0123456789abcdef.woff2"));
    const { widths: w, lines } = await widths(shipped, ["rubik", "ref"]);
    expect(w.rubik).toBeCloseTo(w.ref!, 1);
    expect(lines.filter((line) => /font fallback|blocked network access/.test(line))).toEqual([]);

    const { lines: bare } = await widths(await project(files), []);
    expect(bare.filter((line) => line.startsWith("finding: font fallback"))).toEqual([expect.stringMatching(/^finding: font fallback: "Rubik Mono One" in index\.html /)]);
    expect(bare.filter((line) => /blocked network access/.test(line))).toEqual([]);
  });

  it("a family nobody supplies (in CSS or set by a script) is a finding naming file and family; a strict render fails on it", async () => {
    const root = await project({
      "index.html": page(
        `<link rel="stylesheet" href="css/title.css">`,
        `<span class="title">${SAMPLE}</span><span id="late">${SAMPLE}</span>`,
        `document.getElementById("late").style.fontFamily = '"Scripted Missing", serif';`,
      ),
      "css/title.css": `.title { font-family: "Zorblax Grotesk", sans-serif; }`,
    });
    const { lines } = await widths(root, []);
    const found = lines.filter((line) => line.startsWith("finding: font fallback"));
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^finding: font fallback: "Zorblax Grotesk" in css\/title\.css is not available/);
    expect(found[1]).toMatch(/^finding: font fallback: "Scripted Missing" in index\.html is not available/);
    const report = await checkComposition({ projectDir: root, chrome: binaries.chrome, options: {}, signal, onLine: () => {} });
    expect(report.runtime.filter((f) => f.code === "font-fallback")).toEqual([
      expect.objectContaining({ severity: "warning", file: "css/title.css", message: expect.stringContaining('font fallback: "Zorblax Grotesk" in css/title.css is not available') }),
      expect.objectContaining({ file: "index.html", message: expect.stringContaining('font fallback: "Scripted Missing" in index.html is not available') }),
    ]);
    await expect(
      renderProject({ projectDir: root, outputPath: join(root, "out.mp4"), format: "mp4", quality: "draft", concurrency: 1, strict: true, binaries, signal }),
    ).rejects.toThrow(/font fallback: "Zorblax Grotesk" in css\/title\.css is not available .*; strict renders fail on it/);
  });

  it("the preview page gets the same bundled faces, under its secret", async () => {
    const dir = await project({ "index.html": page("", `<span style="font-family: 'Playfair Display'">${SAMPLE}</span>`) });
    const secret = "s3cr3t-fonts-preview";
    const preview = await servePreview({ projectDir: dir, secret, firstPort: 3900 });
    try {
      const html = await (await fetch(`http://127.0.0.1:${preview.port}/${secret}/`)).text();
      expect(html).toContain(`<link rel="stylesheet" href="/${secret}/__studio/fonts/faces.css" data-studio-fonts>`);
      const faces = await (await fetch(`http://127.0.0.1:${preview.port}/${secret}/__studio/fonts/faces.css`)).text();
      const url = new RegExp(`url\\((/${secret}/__studio/fonts/bundled/playfair-display/playfair-display-latin-700-normal\\.woff2)\\)`).exec(faces)?.[1];
      expect(url).toBeDefined();
      const font = await fetch(`http://127.0.0.1:${preview.port}${url}`);
      expect(font.headers.get("content-type")).toBe("font/woff2");
      expect(Buffer.from(await font.arrayBuffer())).toEqual(await readFile(fontFile("playfair-display", "playfair-display-latin-700-normal.woff2")));
      expect((await fetch(`http://127.0.0.1:${preview.port}/${secret}/__studio/fonts/bundled/inter/..%2f..%2fpackage.json`)).status).toBe(404);
    } finally {
      await preview.close();
    }
  });
});
