import { describe, expect, it } from "vitest";
import { readCompositionMeta } from "./read-composition-meta.ts";

describe("readCompositionMeta", () => {
  it("reads id, duration and size from the first element with data-composition-id", () => {
    const html = `<html><body><div class="wrap"><div id="root" data-composition-id="my-video" data-start="0" data-duration="7.5" data-width="1080" data-height="1920">
      <div data-composition-id="inner" data-duration="2" data-width="10" data-height="10"></div></div></div></body></html>`;
    expect(readCompositionMeta(html)).toEqual({ compositionId: "my-video", duration: 7.5, width: 1080, height: 1920 });
  });

  it("returns nulls for a document without a root", () => {
    expect(readCompositionMeta("<html><body><p>hi</p></body></html>")).toEqual({ compositionId: null, duration: null, width: null, height: null });
    expect(readCompositionMeta("")).toEqual({ compositionId: null, duration: null, width: null, height: null });
  });

  it("returns null for malformed numbers instead of NaN", () => {
    expect(readCompositionMeta('<div data-composition-id="x" data-duration="long" data-width="1920.5" data-height="">')).toEqual({ compositionId: "x", duration: null, width: null, height: null });
  });

  it("accepts unit suffixes people write by habit", () => {
    expect(readCompositionMeta('<div data-composition-id="x" data-duration="6s" data-width="1920px" data-height="1080">')).toEqual({ compositionId: "x", duration: 6, width: 1920, height: 1080 });
  });

  it("ignores look-alike attributes in scripts and comments", () => {
    const html = '<!-- <div data-composition-id="commented"> --><script>const s = \'<div data-composition-id="in-script">\';</script><div data-composition-id="real" data-duration="3">';
    expect(readCompositionMeta(html).compositionId).toBe("real");
  });
});
