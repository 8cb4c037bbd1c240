// Incremental re-render's pure parts: the carry key (any option, file, script or renderer difference changes it),
// the stored manifest (what does not parse carries nothing), the per-segment verdicts (same key, the same segment
// held whole before, every frame's fingerprint equal and none a refusal) and the cut's ffmpeg arguments.
import { describe, expect, it } from "vitest";
import { carryKey, type CarryKeyInput } from "../src/carry/carry-key.ts";
import { readCarryManifest, readFingerprint, writeCarryManifest, CARRY_MANIFEST_VERSION, type CarryManifest } from "../src/carry/carry-manifest.ts";
import { whyFrameDiffers, whyNotCarriedAtAll } from "../src/carry/segment-carrier.ts";
import { carriesSegments, cutArgs } from "../src/carry/cut-previous-segments.ts";
import { resolveRender } from "../src/plan/resolve-render.ts";

const viewport = { cssWidth: 160, cssHeight: 90, deviceScaleFactor: 1, captureWidth: 160, captureHeight: 90, outputWidth: 160, outputHeight: 90 };
const base: CarryKeyInput = {
  browserVersion: "HeadlessChrome/140", options: resolveRender({ format: "mp4", quality: "draft" }), viewport, alpha: false,
  files: { "assets/logo.png": "aa", "fonts/a.woff2": "bb" }, pageKey: "0123456789abcdef",
};

describe("carryKey", () => {
  it("is stable and ignores the order files were listed in", () => {
    expect(carryKey(base)).toBe(carryKey({ ...base, files: { "fonts/a.woff2": "bb", "assets/logo.png": "aa" } }));
  });

  it("changes with every option, file, script, font, variable and the browser", () => {
    const key = carryKey(base);
    const variants: CarryKeyInput[] = [
      { ...base, browserVersion: "HeadlessChrome/141" },
      { ...base, options: resolveRender({ format: "mp4", quality: "standard" }) },
      { ...base, options: resolveRender({ format: "mp4", quality: "draft", fps: 24 }) },
      { ...base, options: resolveRender({ format: "mp4", quality: "draft", crf: 30 }) },
      { ...base, options: resolveRender({ format: "webm", quality: "draft" }) },
      { ...base, options: resolveRender({ format: "mp4", quality: "draft", variables: { title: "Hi" } }) },
      { ...base, options: resolveRender({ format: "mp4", quality: "draft", composition: "other.html" }) },
      { ...base, viewport: { ...viewport, outputWidth: 320 } },
      { ...base, alpha: true },
      { ...base, files: { ...base.files, "fonts/a.woff2": "cc" } },
      { ...base, files: { ...base.files, "assets/new.png": "dd" } },
      { ...base, pageKey: "fedcba9876543210" },
    ];
    const keys = variants.map(carryKey);
    for (const other of keys) expect(other).not.toBe(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("does not change with the range rendered (each segment's own frames are compared instead)", () => {
    expect(carryKey({ ...base, options: resolveRender({ format: "mp4", quality: "draft", from: 1, to: 3 }) })).toBe(carryKey(base));
  });
});

const manifest = (fingerprints: string[], firstFrame = 0, key = "k"): CarryManifest => ({ version: CARRY_MANIFEST_VERSION, key, firstFrame, fingerprints });

describe("the manifest", () => {
  it("reads back what was written", () => {
    const written = manifest(["00000000000000aa", "!a canvas"], 3);
    expect(readCarryManifest(writeCarryManifest(written))).toEqual({ manifest: written });
  });

  it("carries nothing from what does not parse: not JSON, another version, a wrong field", () => {
    expect(readCarryManifest("{").manifest).toBeNull();
    expect(readCarryManifest(JSON.stringify({ ...manifest([]), version: 0 })).manifest).toBeNull();
    expect(readCarryManifest(JSON.stringify({ ...manifest([]), fingerprints: [1] })).manifest).toBeNull();
    expect(readCarryManifest(JSON.stringify({ ...manifest([]), firstFrame: -1 })).manifest).toBeNull();
  });

  it("keeps a page's answer only as a bounded string; anything else is a refusal", () => {
    expect(readFingerprint("00000000000000aa")).toBe("00000000000000aa");
    for (const forged of [null, 12, "", "x".repeat(201), { toString: () => "aa" }]) expect(readFingerprint(forged).startsWith("!")).toBe(true);
  });
});

describe("which segments are carried (S = 4 frames)", () => {
  const prints = Array.from({ length: 10 }, (_, i) => `000000000000000${i}`);
  const source = { manifest: manifest(prints), key: "k" };

  it("a segment the previous render held whole, under the same key, frame by frame equal", () => {
    expect(whyNotCarriedAtAll(source, 1, { start: 4, end: 8 }, 4)).toBeNull();
    for (let f = 4; f < 8; f++) expect(whyFrameDiffers(source, f, prints[f]!)).toBeNull();
    // The last, partial segment, cut the same way both times.
    expect(whyNotCarriedAtAll(source, 2, { start: 8, end: 10 }, 4)).toBeNull();
  });

  it("refuses another key, a segment held partly or cut elsewhere, a differing frame and any refusal", () => {
    expect(whyNotCarriedAtAll({ ...source, key: "other" }, 1, { start: 4, end: 8 }, 4)).toMatch(/other scripts, styles, files/);
    // The composition grew: segment 2 is now whole, but the previous render held only its frames 8 and 9.
    expect(whyNotCarriedAtAll(source, 2, { start: 8, end: 12 }, 4)).toMatch(/did not hold this segment whole/);
    // The previous render was a range from frame 5: its segment 1 was frames 5 to 7 only.
    expect(whyNotCarriedAtAll({ manifest: manifest(prints.slice(5), 5), key: "k" }, 1, { start: 4, end: 8 }, 4)).toMatch(/whole/);
    expect(whyFrameDiffers(source, 5, "00000000000000ff")).toMatch(/differs/);
    expect(whyFrameDiffers(source, 5, "!the page shows a <canvas>")).toMatch(/canvas/);
    // A refusal stored before never matches, not even the same refusal now.
    const refused = { manifest: manifest(["!a canvas"]), key: "k" };
    expect(whyFrameDiffers(refused, 0, "!a canvas")).not.toBeNull();
    expect(whyFrameDiffers(source, 12, prints[0]!)).toMatch(/no such frame/);
  });
});

describe("cutting the previous output", () => {
  it("copies the video stream into pieces at the segments' first frames", () => {
    expect(cutArgs("/w/prev.mp4", "mp4", [60, 120], "/w/cut")).toEqual([
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", "/w/prev.mp4", "-map", "0:v:0", "-c", "copy",
      "-f", "segment", "-segment_format", "mp4", "-segment_frames", "60,120", "-reset_timestamps", "1", "/w/cut/segment-%05d.mp4",
    ]);
    expect(carriesSegments("webm")).toBe(true);
    expect(carriesSegments("gif")).toBe(false);
    expect(carriesSegments("png-sequence")).toBe(false);
  });
});
