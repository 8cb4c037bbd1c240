import { describe, expect, it } from "vitest";
import { analyzeLayout, mergeAcrossTimes, type MeasuredElement } from "./analyze-layout.ts";
import { combineCheck } from "./check-findings.ts";

const CANVAS = { width: 1920, height: 1080 };

function el(id: number, over: Partial<MeasuredElement> = {}): MeasuredElement {
  return {
    id,
    ancestors: [],
    selector: `#e${id}`,
    file: "index.html",
    box: { x: 100, y: 100, width: 200, height: 50 },
    textBox: null,
    overflowX: 0,
    overflowY: 0,
    clipsX: false,
    clipsY: false,
    clippedByAncestor: false,
    ...over,
  };
}

const codes = (elements: MeasuredElement[]) => analyzeLayout(elements, CANVAS, 1).map((f) => `${f.code} ${f.selector}`);

describe("layout inspection", () => {
  it("passes elements that fit", () => {
    expect(codes([el(1, { textBox: { x: 100, y: 100, width: 150, height: 40 } })])).toEqual([]);
  });

  it("tells clipped text (overflow hidden) from text spilling out of its box", () => {
    const text = { x: 100, y: 100, width: 260, height: 40 };
    expect(codes([el(1, { textBox: text, overflowX: 60, clipsX: true })])).toEqual(["text-clipped #e1"]);
    expect(codes([el(1, { textBox: text, overflowX: 60 })])).toEqual(["text-overflow #e1"]);
    expect(codes([el(1, { textBox: text, overflowX: 1 })])).toEqual([]);
  });

  it("reports text an ancestor cuts off as clipped, naming the ancestor, instead of as overflowing its own box", () => {
    const text = { x: 100, y: 100, width: 600, height: 40 };
    const findings = analyzeLayout([el(1, { textBox: text, overflowX: 400, ancestorClip: { px: 300, by: "#bar" } })], CANVAS, 1);
    expect(findings.map((f) => f.code)).toEqual(["text-clipped"]);
    expect(findings[0]?.message).toBe("text of #e1 is cut off by #bar (overflow hidden): 300 px lie outside it at 1 s");
    expect(codes([el(1, { textBox: text, ancestorClip: { px: 2, by: "#bar" } })])).toEqual([]);
    expect(codes([el(1, { textBox: text, ancestorClip: null })])).toEqual([]);
  });

  it("reports the outermost off-canvas element only, and nothing an ancestor clips", () => {
    const outside = { x: 1800, y: 100, width: 300, height: 50 };
    const findings = analyzeLayout([el(1, { box: outside }), el(2, { box: outside, ancestors: [1] }), el(3, { box: { x: -500, y: 0, width: 100, height: 100 }, clippedByAncestor: true })], CANVAS, 2);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: "off-canvas", selector: "#e1", time: 2, box: outside, severity: "warning" });
    expect(findings[0]?.message).toContain("partly outside the 1920x1080 canvas at 2 s");
    expect(analyzeLayout([el(1, { box: { x: 2000, y: 0, width: 10, height: 10 } })], CANVAS, 0)[0]?.message).toContain("entirely");
  });

  it("finds text drawn over text, but not a text inside its own container", () => {
    const a = el(1, { textBox: { x: 100, y: 100, width: 200, height: 40 } });
    const b = el(2, { textBox: { x: 150, y: 110, width: 200, height: 40 } });
    const child = el(3, { ancestors: [1], textBox: { x: 120, y: 105, width: 50, height: 20 } });
    const grazing = el(4, { textBox: { x: 295, y: 135, width: 100, height: 40 } });
    expect(codes([a, b])).toEqual(["text-overlap #e1"]);
    expect(codes([a, child])).toEqual([]);
    expect(codes([a, grazing])).toEqual([]);
  });

  it("merges the same finding across sample times, keeping every time", () => {
    const outside = el(1, { box: { x: 1800, y: 100, width: 300, height: 50 } });
    const merged = mergeAcrossTimes([...analyzeLayout([outside], CANVAS, 1), ...analyzeLayout([outside], CANVAS, 3)]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ time: 1, times: [1, 3] });
  });
});

describe("check verdict", () => {
  const lint = { ok: true, errorCount: 0, warningCount: 1, infoCount: 0, findings: [], filesScanned: 1 };
  const warning = analyzeLayout([el(1, { box: { x: 1800, y: 0, width: 300, height: 10 } })], CANVAS, 1);
  it("passes warnings unless strict", () => {
    expect(combineCheck({ lint, runtime: [], layout: warning, times: [1], strict: false })).toMatchObject({ ok: true, warningCount: 2 });
    const strict = combineCheck({ lint, runtime: [], layout: warning, times: [1], strict: true });
    expect(strict).toMatchObject({ ok: false, lint: { ok: false }, runtime: { ok: true }, layout: { ok: false, times: [1] } });
  });
});
