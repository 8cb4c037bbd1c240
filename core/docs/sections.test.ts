// The one heading splitter: what the skill cuts out of the reference and what the dashboard's docs page shows as
// headings both depend on where it cuts.
import { describe, expect, it } from "vitest";
import { sectionOf, splitAtHeadings } from "./sections.ts";

const TEXT = ["Intro line", "# Part", "", "## First", "body 1", "### Detail", "detail body", "", "## Second", "body 2", "# Next part", "tail"].join("\n");

describe("splitAtHeadings", () => {
  it("cuts at headings up to the level asked, keeping deeper ones in the body and the text before the first", () => {
    const parts = splitAtHeadings(TEXT, 2);
    expect(parts.map((p) => p.heading)).toEqual([null, { level: 1, text: "Part" }, { level: 2, text: "First" }, { level: 2, text: "Second" }, { level: 1, text: "Next part" }]);
    expect(parts[0]?.lines).toEqual(["Intro line"]);
    expect(parts[2]?.lines).toEqual(["body 1", "### Detail", "detail body", ""]);
    expect(splitAtHeadings(TEXT, 3).map((p) => p.heading?.text)).toContain("Detail");
  });

  it("loses no line: the parts and their headings put back together are the text", () => {
    const parts = splitAtHeadings(TEXT, 3);
    const rebuilt = parts.flatMap((p) => [...(p.heading ? [`${"#".repeat(p.heading.level)} ${p.heading.text}`] : []), ...p.lines]);
    expect(rebuilt.join("\n")).toBe(TEXT);
  });

  it("takes no line without a space after the #s, or only #s, as a heading", () => {
    expect(splitAtHeadings("#hashtag\n## \n#### deep", 6).map((p) => p.heading)).toEqual([null, { level: 4, text: "deep" }]);
  });
});

describe("sectionOf", () => {
  it("is a ## section's body with its ### subsections, up to the next # or ## heading, trimmed", () => {
    expect(sectionOf(TEXT, "First")).toBe("body 1\n### Detail\ndetail body");
    expect(sectionOf(TEXT, "Second")).toBe("body 2");
  });

  it("throws for a missing section, or a heading at another level", () => {
    expect(() => sectionOf(TEXT, "Third")).toThrow(/"Third" is missing/);
    expect(() => sectionOf(TEXT, "Part")).toThrow(/missing/);
    expect(() => sectionOf(TEXT, "Detail")).toThrow(/missing/);
  });
});
