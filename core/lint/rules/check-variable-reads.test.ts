import { describe, expect, it } from "vitest";
import { buildComposition, buildSubComposition, codesOf, lintFiles, timelineScript } from "../test-fixtures.ts";
import { readVariableIds } from "./check-variable-reads.ts";

const ROOT = `data-composition-id="demo" data-start="0" data-duration="6" data-width="1920" data-height="1080"`;
const declares = (ids: string[]) => `data-composition-variables='${JSON.stringify(ids.map((id) => ({ id, type: "string", label: id, default: "x" })))}'`;

describe("variable_undeclared", () => {
  it("reads member, bracket, destructuring and aliased reads of getVariables()", () => {
    expect(readVariableIds(`const v = window.__hyperframes.getVariables(); v.title; v["sub-title"]; const { color, size: s = 2, ...rest } = v;`))
      .toEqual(["title", "sub-title", "color", "size"]);
    expect(readVariableIds(`document.title = window.__hyperframes.getVariables().headline + __hyperframes.getVariables()?.["kicker"];`))
      .toEqual(["headline", "kicker"]);
    expect(readVariableIds(`const { accent, "brand": b } = window.__hyperframes.getVariables();`)).toEqual(["accent", "brand"]);
    expect(readVariableIds(`const vars = window.__hyperframes.getVariables(); if (vars.hasOwnProperty("x")) vars.toString();`)).toEqual([]);
  });

  it("warns for a read nothing declares, naming the variable and the file; declared reads are clean", () => {
    const script = `const { title, subtitle } = window.__hyperframes.getVariables();\n${timelineScript("demo")}`;
    const result = lintFiles({ "index.html": buildComposition({ rootAttributes: `${ROOT} ${declares(["title"])}`, script }) });
    expect(codesOf(result)).toEqual(["variable_undeclared"]);
    expect(result.findings[0]).toMatchObject({ severity: "warning", file: "index.html" });
    expect(result.findings[0]!.message).toMatch(/reads variable "subtitle" through getVariables\(\), but no data-composition-variables in index\.html declares it/);
    const clean = lintFiles({ "index.html": buildComposition({ rootAttributes: `${ROOT} ${declares(["title", "subtitle"])}`, script }) });
    expect(codesOf(clean)).toEqual([]);
  });

  it("counts a declaration on <html> and, for a sub-composition, a host's data-variable-values", () => {
    const html = buildComposition({ script: `const t = window.__hyperframes.getVariables().title;\n${timelineScript("demo")}` }).replace("<html>", `<html ${declares(["title"])}>`);
    expect(codesOf(lintFiles({ "index.html": html }))).toEqual([]);
    const sub = buildSubComposition("card", `<script>const { color } = window.__hyperframes.getVariables();</script>`);
    const host = (values: string) => `<div data-composition-id="card" data-composition-src="compositions/card.html" data-start="0" data-duration="6" data-track-index="1" data-width="1920" data-height="1080" ${values}></div>`;
    expect(codesOf(lintFiles({ "index.html": buildComposition({ body: host(`data-variable-values='{"color":"#f00"}'`) }), "compositions/card.html": sub }))).toEqual([]);
    const missing = lintFiles({ "index.html": buildComposition({ body: host("") }), "compositions/card.html": sub });
    expect(missing.findings.filter((f) => f.code === "variable_undeclared").map((f) => f.file)).toEqual(["compositions/card.html"]);
  });
});
