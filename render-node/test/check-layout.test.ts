// check in real Chromium: the starter composition a new project gets passes with no findings, text cut off by an
// ancestor's overflow (nowrap, no ellipsis, several levels up) is reported while intended clipping is not, and
// everything painted in the frame is inspected, inside the root or not.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { lintProject } from "../../core/lint/lint-project.ts";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";

const binaries = await resolveBinaries();
const signal = new AbortController().signal;
const noop = () => {};

async function projectWith(html: string, files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "check-layout-"));
  await writeFile(join(dir, "index.html"), html);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, dirname(path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe("the starter composition", () => {
  it.each([
    ["a short title", "Launch day"],
    ["the longest one-line name", "Quarterly results for the whole team"],
    ["a name that wraps to two lines", "A much longer project name that an agent might give its very first video"],
  ])("passes lint and the browser check with no findings, with %s", async (_label, title) => {
    const html = starterComposition({ compositionId: "my-first-video", title });
    const lint = lintProject({ files: [{ path: "index.html", size: html.length, text: html }] }, { verbose: false });
    expect(lint.findings).toEqual([]);
    const report = await checkComposition({ projectDir: await projectWith(html), chrome: binaries.chrome, options: {}, signal, onLine: noop });
    expect(report.runtime).toEqual([]);
    expect(report.layout).toEqual([]);
    expect(report.times).toHaveLength(9);
  });
});

const page = (body: string, css = "", outside = "") => `<!doctype html>
<html><head>
<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
<style>
  html, body { margin: 0; width: 1280px; height: 720px; overflow: hidden; background: #000; color: #fff; font: 40px/1.2 sans-serif; }
  [data-composition-id="clip"] { position: relative; width: 1280px; height: 720px; overflow: hidden; }
  ${css}
</style></head><body>
<div id="root" data-composition-id="clip" data-start="0" data-duration="2" data-width="1280" data-height="720">
${body}
</div>
${outside}
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to("#root", { opacity: 1, duration: 2 }, 0);
  window.__timelines = window.__timelines || {};
  window.__timelines["clip"] = tl;
</script>
</body></html>`;

const LONG = "A name far too long to fit in this narrow bar at forty pixels";

describe("text clipped by an ancestor's overflow", () => {
  it("reports nowrap text cut by its container, by an ancestor three levels up, and lines cut at the bottom", async () => {
    const html = page(
      `<div id="bar" style="position:absolute; left:20px; top:20px; width:400px; overflow:hidden; white-space:nowrap"><span id="name">${LONG}</span></div>
  <div id="frame" style="position:absolute; left:20px; top:120px; width:500px; height:80px; overflow:hidden">
    <div><div><p id="deep" style="margin:0; white-space:nowrap">${LONG}</p></div></div>
  </div>
  <div id="card" style="position:absolute; left:20px; top:260px; width:600px; height:60px; overflow:hidden"><p id="para" style="margin:0">Three lines of text that wrap inside a card that is only one line tall, so two are hidden.</p></div>`,
    );
    const report = await checkComposition({ projectDir: await projectWith(html), chrome: binaries.chrome, options: { at: [1] }, signal, onLine: noop });
    const clipped = report.layout.filter((f) => f.code === "text-clipped");
    expect(clipped.map((f) => f.selector).sort()).toEqual(["#deep", "#name", "#para"]);
    expect(clipped.find((f) => f.selector === "#name")?.message).toMatch(/cut off by #bar \(overflow hidden\): \d+ px/);
    expect(clipped.find((f) => f.selector === "#deep")?.message).toContain("cut off by #frame");
    // Cut text is reported as cut, not as text spilling out of its own box.
    expect(report.layout.filter((f) => f.code === "text-overflow")).toEqual([]);
    const hidden = Number(/: (\d+) px/.exec(clipped.find((f) => f.selector === "#name")!.message)?.[1]);
    expect(hidden).toBeGreaterThan(300);
  });

  it("leaves text that fits, text a mask hides entirely, and text sliding into a mask alone", async () => {
    const html = page(
      `<div style="position:absolute; left:20px; top:20px; width:900px; overflow:hidden; white-space:nowrap"><span id="fits">Short name</span></div>
  <div style="position:absolute; left:20px; top:120px; width:600px; height:50px; overflow:hidden"><p id="below" style="margin:0; position:relative; top:60px">Hidden until revealed</p></div>
  <div style="position:absolute; left:20px; top:220px; width:600px; height:50px; overflow:hidden"><p id="sliding" style="margin:0; transform:translateY(50%)">Half way into view</p></div>`,
    );
    const report = await checkComposition({ projectDir: await projectWith(html), chrome: binaries.chrome, options: { at: [1] }, signal, onLine: noop });
    expect(report.layout).toEqual([]);
  });
});

describe("everything painted in the frame, not only the root's subtree", () => {
  it("reports text cut off beside the root, in a fixed box and in a sub-composition host outside the root", async () => {
    const html = page(
      `<p style="margin:0">Inside</p>`,
      "",
      `<div class="ticker" style="position:absolute; left:20px; top:600px; width:300px; overflow:hidden; white-space:nowrap"><span class="ticker-text">${LONG}</span></div>
<div style="position:fixed; right:20px; top:20px; width:300px; height:50px; overflow:hidden"><p id="badge" style="margin:0">${LONG}</p></div>
<div id="aside" data-composition-id="aside" data-composition-src="compositions/aside.html" data-start="0" data-duration="2" style="position:absolute; left:700px; top:400px; width:200px; height:60px; overflow:hidden"></div>`,
    );
    const aside = `<template><div data-composition-id="aside" data-width="200" data-height="60">
  <p id="aside-text" style="margin:0; white-space:nowrap">${LONG}</p>
  <script>window.__timelines = window.__timelines || {}; window.__timelines["aside"] = gsap.timeline({ paused: true }).to({}, { duration: 2 });</script>
</div></template>`;
    const report = await checkComposition({ projectDir: await projectWith(html, { "compositions/aside.html": aside }), chrome: binaries.chrome, options: { at: [1] }, signal, onLine: noop });
    const clipped = report.layout.filter((f) => f.code === "text-clipped");
    expect(clipped.map((f) => f.selector).sort()).toEqual(["#aside-text", "#badge", "span.ticker-text"]);
    expect(clipped.find((f) => f.selector === "span.ticker-text")?.message).toMatch(/cut off by div\.ticker \(overflow hidden\)/);
    expect(clipped.find((f) => f.selector === "#aside-text")?.file).toBe("compositions/aside.html");
    expect(report.runtime).toEqual([]);
  });

  it("leaves what is not painted outside the root alone, and a fixed box a small container cannot cut", async () => {
    const cut = (id: string, style: string) =>
      `<div style="position:absolute; left:20px; top:500px; width:200px; overflow:hidden; white-space:nowrap; ${style}"><span id="${id}">${LONG}</span></div>`;
    const html = page(
      `<div style="position:absolute; left:20px; top:20px; width:100px; height:40px; overflow:hidden"><p id="escapes" style="position:fixed; left:20px; top:100px; margin:0; white-space:nowrap">Fixed caption wider than the box it sits in</p></div>`,
      "",
      [
        cut("none", "display:none"),
        cut("hidden", "visibility:hidden"),
        cut("transparent", "opacity:0"),
        `<div data-start="1.5" data-duration="0.4" style="position:absolute; left:20px; top:560px; width:200px; overflow:hidden; white-space:nowrap"><span id="later">${LONG}</span></div>`,
      ].join("\n"),
    );
    const report = await checkComposition({ projectDir: await projectWith(html), chrome: binaries.chrome, options: { at: [1] }, signal, onLine: noop });
    expect(report.layout).toEqual([]);
    // The timed clip is painted in its window, and then its text is cut.
    const inWindow = await checkComposition({ projectDir: await projectWith(html), chrome: binaries.chrome, options: { at: [1.6] }, signal, onLine: noop });
    expect(inWindow.layout.map((f) => `${f.code} ${f.selector}`)).toEqual(["text-clipped #later"]);
  });
});
