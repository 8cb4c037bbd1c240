import { describe, expect, it } from "vitest";
import { listSubCompositions } from "./list-sub-compositions.ts";

describe("listSubCompositions", () => {
  it("lists each host with its parsed attributes in document order", () => {
    const html = `<div data-composition-id="main" data-duration="10">
      <div data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>
      <div data-composition-id="outro" data-composition-src=" compositions/outro.html " data-start="7.5" data-duration="2.5"></div>
    </div>`;
    expect(listSubCompositions(html)).toEqual([
      { compositionId: "intro", src: "compositions/intro.html", start: 0, duration: 3, trackIndex: 1, width: 1920, height: 1080 },
      { compositionId: "outro", src: "compositions/outro.html", start: 7.5, duration: 2.5, trackIndex: null, width: null, height: null },
    ]);
  });

  it("returns an empty list when there are no hosts", () => {
    expect(listSubCompositions('<div data-composition-id="main"></div>')).toEqual([]);
  });
});
