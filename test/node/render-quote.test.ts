// The quote's arithmetic and the actual use at a render's end, on plain values: the fitted model's terms (size,
// frames, clips, shader, quality) and the farm's throughput move the estimate, a long render with free nodes is
// quoted split (its node seconds above its wall seconds), a GIF whole, a composition without a length unknown; the
// composition's media read statically; the actual node seconds sum the jobs a node ran, an open job running to the end.
import { describe, expect, it } from "vitest";
import { readCompositionCostFacts } from "../../core/composition/read-cost-facts.ts";
import { starterComposition } from "../../core/composition/starter.ts";
import { busiestBrowserFrames, COST_TERMS, type CostCoefficients } from "../../core/render/cost-model.ts";
import type { CostModelFit } from "../../core/render/cost-model-fit.ts";
import { actualUse } from "../../worker/renders/actual-use.ts";
import { quoteOf, type QuoteFacts } from "../../worker/renders/quote-estimate.ts";
import type { FarmModel } from "../../worker/renders/split-plan.ts";

const model: FarmModel = { segmentOverheadS: 3, framesPerSecond1080p: 15, joinPerVideoSecondS: 0.075, maxSegments: 8 };
const queue = { position: 1, etaSeconds: null };
const media = { videoClips: 0, audioClips: 0, shaderTransitions: false, rootBackground: true, filterEffects: false };
const root = { width: 1920, height: 1080, durationSeconds: 60, ...media };
// Plain figures, so the arithmetic reads: 1 s fixed, 0.05 s a 1080p frame (0.02 + 0.03 × 2.0736 MP ≈ 0.0822 s),
// a <video> clip 0.01 s a frame, a shader transition 0.02 s a frame, high quality 0.01 s per megapixel-frame more.
const zero = Object.fromEntries(COST_TERMS.map((t) => [t, 0])) as CostCoefficients;
const fit: CostModelFit = {
  version: "test-fit", fittedOn: "2026-11-29", machine: "a test", browsers: 2,
  coefficients: { ...zero, fixed: 1, frame: 0.02, megapixelFrame: 0.03, highMegapixelFrame: 0.01, videoClipFrame: 0.01, shaderFrame: 0.02, alphaMegapixelFrame: 0.05 },
};
const facts = (over: Partial<QuoteFacts> = {}): QuoteFacts => ({
  root, fps: 30, options: { resolution: null, format: "mp4", quality: "standard" }, freeNodes: 1, model, queue, fit, throughputScale: 1, ...over,
});
const perFrame1080 = 0.02 + 0.03 * 2.0736;

describe("quoteOf", () => {
  it("quotes a whole render by the fitted model: the fixed cost and the frames at their size", () => {
    const quote = quoteOf(facts({ root: { ...root, durationSeconds: 10 } }));
    expect(quote).toMatchObject({ frames: 300, width: 1920, height: 1080, segments: 1, reason: null, model: { version: "test-fit", throughputScale: 1 } });
    expect(quote.renderSeconds).toBeCloseTo(1 + 300 * perFrame1080, 1);
    expect(quote.wallSeconds).toBe(quote.renderSeconds);
    expect(quote.model.basis).toContain("fitted on 2026-11-29");
  });

  it("counts what the composition holds and the quality asked: a clip, a shader transition and high quality each cost more", () => {
    const base = quoteOf(facts({ root: { ...root, durationSeconds: 10 } })).renderSeconds!;
    const clip = quoteOf(facts({ root: { ...root, durationSeconds: 10, videoClips: 1 } })).renderSeconds!;
    const shader = quoteOf(facts({ root: { ...root, durationSeconds: 10, shaderTransitions: true } })).renderSeconds!;
    const high = quoteOf(facts({ root: { ...root, durationSeconds: 10 }, options: { resolution: null, format: "mp4", quality: "high" } })).renderSeconds!;
    expect(clip - base).toBeCloseTo(300 * 0.01, 1);
    expect(shader - base).toBeCloseTo(300 * 0.02, 1);
    expect(high - base).toBeCloseTo(300 * 2.0736 * 0.01, 1);
  });

  it("counts an alpha plane only where the output keeps one: a webm of a root without a background, not an mp4 of it nor a webm of a painted root", () => {
    const of = (format: "mp4" | "webm", rootBackground: boolean) =>
      quoteOf(facts({ root: { ...root, durationSeconds: 10, rootBackground }, options: { resolution: null, format, quality: "standard" } })).renderSeconds!;
    expect(of("webm", false) - of("webm", true)).toBeCloseTo(300 * 2.0736 * 0.05, 1);
    expect(of("mp4", false)).toBe(of("mp4", true));
  });

  it("counts VP9's alpha plane as an encode of its own: a transparent webm, not a transparent mov", () => {
    const vp9 = { ...fit, coefficients: { ...fit.coefficients, alphaMegapixelFrame: 0, webmAlphaMegapixelFrame: 0.05 } };
    const of = (format: "webm" | "mov", rootBackground: boolean) =>
      quoteOf(facts({ root: { ...root, durationSeconds: 10, rootBackground }, options: { resolution: null, format, quality: "standard" }, fit: vp9 })).renderSeconds!;
    expect(of("webm", false) - of("webm", true)).toBeCloseTo(300 * 2.0736 * 0.05, 1);
    expect(of("mov", false)).toBe(of("mov", true));
  });

  it("counts a blurring or shadowing CSS filter as dearer paint, in proportion to the pixels", () => {
    const blur = { ...fit, coefficients: { ...fit.coefficients, filterMegapixelFrame: 0.05 } };
    const of = (filterEffects: boolean) => quoteOf(facts({ root: { ...root, durationSeconds: 10, filterEffects }, fit: blur })).renderSeconds!;
    expect(of(true) - of(false)).toBeCloseTo(300 * 2.0736 * 0.05, 1);
  });

  it("times a capture by its busiest browser: one second is one browser's work, as long as two seconds on two", () => {
    const path = { ...fit, coefficients: { ...zero, fixed: 1, pathFrame: 0.1 } };
    const seconds = (durationSeconds: number, browsers = 2) =>
      quoteOf(facts({ root: { ...root, durationSeconds }, fit: { ...path, browsers } })).renderSeconds!;
    expect(seconds(1)).toBeCloseTo(1 + 30 * 0.1, 5);
    expect(seconds(2)).toBe(seconds(1));
    // Three segments on two browsers: the busiest captures two of them.
    expect(seconds(3)).toBeCloseTo(1 + 60 * 0.1, 5);
    // A node of one browser captures them all.
    expect(seconds(3, 1)).toBeCloseTo(1 + 90 * 0.1, 5);
    // A partial last segment: 75 frames are segments of 30, 30 and 15; the busiest takes the first and third.
    expect(busiestBrowserFrames(75, 30, 2)).toBe(60);
    expect(busiestBrowserFrames(10, 30, 2)).toBe(10);
    expect(busiestBrowserFrames(300, 29.97, 4)).toBe(90);
  });

  it("scales the estimate by the farm's recent throughput, and says by how much", () => {
    const plain = quoteOf(facts({ root: { ...root, durationSeconds: 10 } }));
    const slow = quoteOf(facts({ root: { ...root, durationSeconds: 10 }, throughputScale: 2 }));
    expect(slow.renderSeconds).toBeCloseTo(2 * plain.renderSeconds!, 0);
    expect(slow.model.throughputScale).toBe(2);
  });

  it("quotes a minute at 1080p on four free nodes split in four: the wall time falls, the node time grows by the overheads and the join", () => {
    const quote = quoteOf(facts({ freeNodes: 4 }));
    const whole = 1 + 1800 * perFrame1080;
    expect(quote).toMatchObject({ frames: 1800, segments: 4 });
    expect(quote.wallSeconds).toBeCloseTo(3 + whole / 4 + 60 * 0.075, 1);
    expect(quote.renderSeconds).toBeCloseTo(whole + 4 * 3 + 60 * 0.075, 1);
  });

  it("keeps a GIF whole, at its scaled-down size", () => {
    const quote = quoteOf(facts({ root: { ...root, durationSeconds: 4 }, fps: 15, options: { resolution: null, format: "gif", quality: "standard" }, freeNodes: 4 }));
    expect(quote).toMatchObject({ frames: 60, width: 720, height: 405, segments: 1 });
    expect(quote.renderSeconds).toBe(quote.wallSeconds);
  });

  it("says why it cannot count frames rather than guess", () => {
    const quote = quoteOf(facts({ root: { ...root, durationSeconds: null }, options: { resolution: "square", format: "mp4", quality: "standard" } }));
    expect(quote).toMatchObject({ frames: null, width: 1080, height: 1080, renderSeconds: null, wallSeconds: null, segments: null });
    expect(quote.reason).toMatch(/no data-duration/);
  });
});

describe("readCompositionCostFacts", () => {
  it("reads the root's size and length and counts the clips, tones and the shader library the file loads", () => {
    const html = starterComposition({ compositionId: "facts", title: "Facts", duration: 3 })
      .replace("</body>", '<video src="a.mp4"></video><video src="b.mp4"></video><audio src="t.wav"></audio><script src="https://cdn.jsdelivr.net/npm/@hyperframes/shader-transitions/dist/index.global.js"></script></body>');
    expect(readCompositionCostFacts(html)).toMatchObject({ size: { width: 1920, height: 1080, duration: 3 }, videoClips: 2, audioClips: 1, shaderTransitions: true });
    expect(readCompositionCostFacts(starterComposition({ compositionId: "plain", title: "Plain", duration: 3 }))).toMatchObject({ videoClips: 0, audioClips: 0, shaderTransitions: false });
    expect(readCompositionCostFacts("<p>no root</p>")).toBeNull();
  });

  it("finds the shader library however it is loaded: its CDN URL, or the call that sets it up (a project file, inline)", () => {
    const page = (scripts: string) => `<html><body><div data-composition-id="c" data-width="640" data-height="360" data-duration="1"></div>${scripts}</body></html>`;
    const shader = (scripts: string) => readCompositionCostFacts(page(scripts))!.shaderTransitions;
    expect(shader('<script src="vendor/hyper-shader.global.js"></script><script>window.HyperShader.init({ scenes: [] });</script>')).toBe(true);
    expect(shader("<script>HyperShader . init ({})</script>")).toBe(true);
    expect(shader('<script src="vendor/hyper-shader.global.js"></script>')).toBe(false);
    expect(shader("<script>const HyperShaderinit = 1;</script>")).toBe(false);
  });

  it("finds CSS filters that blur or shadow, in a stylesheet or a style attribute; not other filters", () => {
    const page = (style: string, attributes = "") =>
      `<html><head><style>${style}</style></head><body><div data-composition-id="c" data-width="640" data-height="360" data-duration="1"><p ${attributes}>x</p></div></body></html>`;
    const filters = (style: string, attributes?: string) => readCompositionCostFacts(page(style, attributes))!.filterEffects;
    expect(filters(".glow { filter: blur(80px); }")).toBe(true);
    expect(filters("", 'style="filter: saturate(2) drop-shadow(0 0 4px #000)"')).toBe(true);
    expect(filters("@media (min-width: 1px) { .panel { -webkit-backdrop-filter: saturate(1.5); } }")).toBe(true);
    expect(filters(".x { filter: grayscale(1); } .y { backdrop-filter: none; }")).toBe(false);
    expect(filters("", 'style="filter: none"')).toBe(false);
    // The starter's glows are blurred.
    expect(readCompositionCostFacts(starterComposition({ compositionId: "plain", title: "Plain", duration: 3 }))!.filterEffects).toBe(true);
  });

  it("tells a root that paints its own background from one that leaves html's and body's backdrop to show (a transparent webm)", () => {
    const page = (style: string, attributes = "") =>
      `<html><head><style>html, body { background: #111; } ${style}</style></head><body><div id="stage" class="scene main" data-composition-id="c" data-width="640" data-height="360" data-duration="1" ${attributes}></div></body></html>`;
    const paints = (style: string, attributes?: string) => readCompositionCostFacts(page(style, attributes))!.rootBackground;
    expect(paints("")).toBe(false);
    expect(paints("#stage { background: linear-gradient(#000, #fff); }")).toBe(true);
    expect(paints(".main { background-color: rgb(0 0 0); }")).toBe(true);
    expect(paints('[data-composition-id="c"] { background: #000; }')).toBe(true);
    expect(paints("", 'style="background: #222"')).toBe(true);
    // Not the root: a descendant, a longer id, a class it lacks, a background that paints nothing.
    expect(paints("#stage .card { background: #000; }")).toBe(false);
    expect(paints("#stage2 { background: #000; }")).toBe(false);
    expect(paints(".mainly { background: #000; }")).toBe(false);
    expect(paints("#stage { background: transparent; }")).toBe(false);
    // The starter paints its root's gradient.
    expect(readCompositionCostFacts(starterComposition({ compositionId: "plain", title: "Plain", duration: 3 }))!.rootBackground).toBe(true);
  });
});

describe("actualUse", () => {
  it("sums the node time of every job a node ran; an open job runs to the end; none ran: nothing used", () => {
    const jobs = [
      { startedAt: 1000, finishedAt: 3000 }, // the planning job
      { startedAt: 3000, finishedAt: 13000 },
      { startedAt: 3500, finishedAt: 12500 },
      { startedAt: 13000, finishedAt: null }, // the join, ended with the render
    ];
    expect(actualUse(jobs, { doneAt: 15000, ranMs: 14000 })).toEqual({ renderSeconds: 2 + 10 + 9 + 2, wallSeconds: 14 });
    expect(actualUse([{ startedAt: null, finishedAt: null }], { doneAt: 15000, ranMs: 0 })).toBeNull();
  });
});
