import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles } from "../test-fixtures.ts";

// data-start references and data-volume ranges as the runtime and the mixer read them (core/composition).
const lintBody = (body: string, extra: Record<string, string> = {}) => lintFiles({ "index.html": buildComposition({ body }), ...extra });
const audio = (attrs: string) => `<audio id="music" src="assets/music.mp3" data-start="0" data-duration="2" data-track-index="3" ${attrs}></audio>`;
const upload = { "assets/music.mp3": "ID3" };

describe("clip_start_unresolved", () => {
  it("accepts clips timed from one another, and ids in a sub-composition file", () => {
    const body = `<h1 class="title">Hi</h1>
      <div id="intro" data-start="0" data-duration="1" data-track-index="1"></div>
      <div id="next" data-start="intro + 0.5" data-duration="1" data-track-index="2"></div>
      <div id="last" data-start="next" data-duration="1" data-track-index="3"></div>
      <div id="tail" data-start="intro - 0.2" data-duration="1" data-track-index="4"></div>`;
    expect(lintBody(body).findings.filter((f) => f.code === "clip_start_unresolved")).toEqual([]);
  });

  it("is an error naming the clip for an unknown id, unreadable text and a cycle", () => {
    const body = `<h1 class="title">Hi</h1>
      <div id="a" data-start="ghost + 1" data-duration="1" data-track-index="1"></div>
      <div id="b" data-start="a * 2" data-duration="1" data-track-index="2"></div>
      <div id="c" data-start="d" data-duration="1" data-track-index="3"></div>
      <div id="d" data-start="c + 1" data-duration="1" data-track-index="4"></div>`;
    const result = lintBody(body);
    const found = result.findings.filter((f) => f.code === "clip_start_unresolved");
    expect(found.map((f) => f.message)).toEqual([
      '#a has data-start="ghost + 1", but no element has that id (nor that data-composition-id), so its start cannot be resolved.',
      '#b has data-start="a * 2", which is neither seconds nor a clip id with an optional + or - offset ("intro", "intro + 2").',
      '#c has data-start="d", which refers back to itself through #c → #d → #c, so no start can be resolved.',
    ]);
    expect(found.map((f) => f.selector)).toEqual(["div#a", "div#b", "div#c"]);
    expect(found.every((f) => f.severity === "error")).toBe(true);
    expect(result.ok).toBe(false);
  });
});

describe("audio_volume_out_of_range", () => {
  it("accepts 0 to 3.98 and warns past +12 dB, below 0 and for junk, saying what plays", () => {
    for (const ok of ["0", "1", "2.5", "3.98"]) expect(codesOf(lintBody(`<h1 class="title">Hi</h1>${audio(`data-volume="${ok}"`)}`, upload)), ok).not.toContain("audio_volume_out_of_range");
    const loud = lintBody(`<h1 class="title">Hi</h1>${audio('data-volume="9"')}`, upload).findings.filter((f) => f.code === "audio_volume_out_of_range");
    expect(loud).toHaveLength(1);
    expect(loud[0]!.message).toContain("plays at 3.981");
    expect(loud[0]!.severity).toBe("warning");
    for (const bad of ["-1", "loud"]) expect(codesOf(lintBody(`<h1 class="title">Hi</h1>${audio(`data-volume="${bad}"`)}`, upload)), bad).toContain("audio_volume_out_of_range");
  });
});

describe("media_playback_rate_out_of_range", () => {
  it("accepts 0.1 to 10 and warns for junk, 0 and past 10, saying what plays", () => {
    for (const ok of ["0.1", "0.5", "2", "10"]) expect(codesOf(lintBody(`<h1 class="title">Hi</h1>${audio(`data-playback-rate="${ok}"`)}`, upload)), ok).not.toContain("media_playback_rate_out_of_range");
    const fast = lintBody(`<h1 class="title">Hi</h1>${audio('data-playback-rate="40"')}`, upload).findings.filter((f) => f.code === "media_playback_rate_out_of_range");
    expect(fast).toHaveLength(1);
    expect(fast[0]!.message).toContain("plays at 10");
    expect(fast[0]!.severity).toBe("warning");
    for (const bad of ["0", "fast"]) expect(codesOf(lintBody(`<h1 class="title">Hi</h1>${audio(`data-playback-rate="${bad}"`)}`, upload)), bad).toContain("media_playback_rate_out_of_range");
  });
});
