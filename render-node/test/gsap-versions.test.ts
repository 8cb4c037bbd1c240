// Any GSAP 3 from the usual CDNs renders offline: the node serves the release a URL pins when it ships it (npm
// aliases gsap-3.12.5, gsap-3.13.0, gsap-3.14.2), the nearest shipped one otherwise with a finding that says so.
// Real Chromium: the page itself reports gsap.version as a colour.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { serveGsapVersion, SHIPPED_GSAP_VERSIONS } from "../../core/composition/gsap-versions.ts";
import { GSAP_VERSION } from "../../core/composition/match-gsap-url.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { readPixel } from "./inspect-video.ts";

describe("which release a pinned URL gets", () => {
  it("ships GSAP_VERSION as its newest release", () => {
    expect(SHIPPED_GSAP_VERSIONS[SHIPPED_GSAP_VERSIONS.length - 1]).toBe(GSAP_VERSION);
  });

  it.each([
    ["3.12.5", "3.12.5", true],
    ["3.13.0", "3.13.0", true],
    ["3.14.2", "3.14.2", true],
    ["3.12.2", "3.12.5", false],
    ["3.11.4", "3.12.5", false],
    ["3.13.4", "3.13.0", false],
    ["3.14.9", "3.14.2", false],
    ["3.12", "3.12.5", false],
    ["3", GSAP_VERSION, false],
    ["2.1.3", "3.12.5", false],
    ["not-a-version", GSAP_VERSION, false],
    [null, GSAP_VERSION, false],
  ] as const)("%s → %s", (requested, version, exact) => {
    expect(serveGsapVersion(requested)).toEqual({ version, exact });
    expect(SHIPPED_GSAP_VERSIONS).toContain(version);
  });
});

const W = 160;
const H = 90;
// Green when the page runs the wanted release (and its CustomEase plugin from the same CDN path loaded), red otherwise.
const page = (coreUrl: string, pluginUrl: string, wanted: string) => `<!doctype html>
<html><head><meta charset="utf-8"><script src="${coreUrl}"></script><script src="${pluginUrl}"></script>
<style>html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }</style></head>
<body><div id="box" data-composition-id="main" data-start="0" data-duration="0.5" data-width="${W}" data-height="${H}" style="width: ${W}px; height: ${H}px"></div>
<script>
  const right = gsap.version === ${JSON.stringify(wanted)} && typeof CustomEase === "function";
  document.getElementById("box").style.background = right ? "#00ff00" : "#ff0000";
  window.__timelines = { main: gsap.timeline({ paused: true }).to({}, { duration: 0.5 }) };
</script></body></html>`;

let binaries: Binaries;
beforeAll(async () => {
  binaries = await resolveBinaries();
});

async function renderPage(html: string) {
  const dir = await mkdtemp(join(tmpdir(), "studio-gsap-"));
  await writeFile(join(dir, "index.html"), html);
  const file = join(dir, "out.mp4");
  const result = await renderProject({
    projectDir: dir, outputPath: file, format: "mp4", quality: "standard", concurrency: 1, signal: new AbortController().signal,
  });
  return { result, pixel: await readPixel(binaries.ffmpeg, file, W, 5, 80, 45) };
}

describe("GSAP releases served from CDN URLs", () => {
  it("a page pinned to GSAP 3.12.5 on jsDelivr runs 3.12.5 (and its plugin), with no substitution finding", async () => {
    const { result, pixel } = await renderPage(page(
      "https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js", "https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/CustomEase.min.js", "3.12.5",
    ));
    expect(pixel[1], `pixel ${pixel.join(",")}: green means gsap.version was 3.12.5`).toBeGreaterThan(200);
    expect(pixel[0]).toBeLessThan(60);
    expect(result.findings.filter((f) => f.code.startsWith("gsap-"))).toEqual([]);
  }, 120_000);

  it("a release the node does not ship (3.12.2 on cdnjs) runs the nearest (3.12.5), with a warning naming both", async () => {
    const { result, pixel } = await renderPage(page(
      "https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.2/gsap.min.js", "https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.2/CustomEase.min.js", "3.12.5",
    ));
    expect(pixel[1], `pixel ${pixel.join(",")}: green means gsap.version was 3.12.5`).toBeGreaterThan(200);
    const substituted = result.findings.filter((f) => f.code === "gsap-version-substituted");
    expect(substituted.length).toBeGreaterThan(0);
    expect(substituted.every((f) => f.severity === "warning")).toBe(true);
    expect(substituted[0]!.message).toMatch(/GSAP 3\.12\.2 requested .*served GSAP 3\.12\.5/);
  }, 120_000);
});
