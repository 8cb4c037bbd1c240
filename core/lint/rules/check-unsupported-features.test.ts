import { describe, expect, it } from "vitest";
import { buildComposition, lintFiles } from "../test-fixtures.ts";

const lintBody = (body: string) => lintFiles({ "index.html": buildComposition({ body }), "assets/a.mp4": "mp4" });
const video = (attrs: string) => `<video id="clip" src="assets/a.mp4" muted data-start="0" data-duration="2" data-track-index="1" ${attrs}></video>`;

describe("hyperframes_feature_unsupported", () => {
  it("warns once per element and attribute HyperFrames renders and the studio does not, naming both", () => {
    const found = lintBody(video(`data-color-grading='{"preset":"warm-daylight"}' data-fx-chain="{}"`)).findings.filter((f) => f.code === "hyperframes_feature_unsupported");
    expect(found.map((f) => [f.severity, f.selector, f.message.split(" is ")[0]])).toEqual([
      ["warning", "video#clip", "data-color-grading on video#clip"],
      ["warning", "video#clip", "data-fx-chain on video#clip"],
    ]);
    expect(found[0]!.fixHint).toContain("Remove data-color-grading");
  });
  it("says nothing for a composition without them", () => {
    expect(lintBody(video("")).findings.filter((f) => f.code === "hyperframes_feature_unsupported")).toEqual([]);
  });
});
