import { describe, expect, it } from "vitest";
import { buildComposition, lintFiles } from "../test-fixtures.ts";

const lintBody = (body: string) => lintFiles({ "index.html": buildComposition({ body }), "assets/a.mp4": "mp4" });
const video = (attrs: string) => `<video id="clip" src="assets/a.mp4" muted data-start="0" data-duration="2" data-track-index="1" ${attrs}></video>`;

describe("hyperframes_feature_unsupported", () => {
  it("warns once per element and attribute HyperFrames renders and the studio does not, naming both", () => {
    const chain = `{"version":1,"nodes":[{"type":"lowpass"},{"type":"reverb"},{"type":"compressor"}]}`;
    const found = lintBody(video(`data-color-grading='{"preset":"night-lift"}' data-fx-chain='${chain}'`)).findings.filter((f) => f.code === "hyperframes_feature_unsupported");
    expect(found.map((f) => [f.severity, f.selector, f.message.split(" not rendered")[0]])).toEqual([
      ["warning", "video#clip", "data-color-grading on video#clip: the night-lift preset's look beyond its colour (its vignette) is"],
      ["warning", "video#clip", "data-fx-chain on video#clip: reverb, compressor are"],
    ]);
    expect(found[0]!.fixHint).toContain("Remove data-color-grading");
  });
  it("says nothing of the grades, effects and lanes the studio renders, and names a value it cannot read", () => {
    const rendered = `data-color-grading='{"preset":"warm-daylight","lut":".media/luts/a.cube"}' data-fx-chain='{"version":1,"nodes":[{"type":"highpass"},{"type":"delay"}]}' data-automation='{"version":1,"lanes":[{"target":"volume","points":[{"t":0,"v":1}]}]}'`;
    expect(lintBody(video(rendered)).findings.filter((f) => f.code === "hyperframes_feature_unsupported")).toEqual([]);
    // Only pictures are graded, by either renderer.
    expect(lintBody(`<div id="box" data-color-grading="night-lift">x</div>`).findings.filter((f) => f.code === "hyperframes_feature_unsupported")).toEqual([]);
    const unreadable = lintBody(video(`data-fx-chain="{}"`)).findings.filter((f) => f.code === "hyperframes_feature_unsupported");
    expect(unreadable.map((f) => f.message)).toEqual(["data-fx-chain on video#clip cannot be read (version undefined, not 1): the clip sounds without its effects."]);
  });
  it("says nothing for a composition without them", () => {
    expect(lintBody(video("")).findings.filter((f) => f.code === "hyperframes_feature_unsupported")).toEqual([]);
  });
});
