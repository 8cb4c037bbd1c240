// Pure parts of the node's browser jobs: preview change detection and reading the loader's lines as findings.
import { describe, expect, it } from "vitest";
import { runtimeFindingFromLine } from "../src/check-composition.ts";
import { diffFileListings } from "../src/diff-file-listings.ts";

describe("preview change detection", () => {
  const base = [
    { path: "index.html", size: 10, mtime: "2026-01-01T00:00:00.000Z" },
    { path: "assets/a.png", size: 5, mtime: "2026-01-01T00:00:00.000Z" },
  ];
  it("notices new, rewritten and removed files, but not snapshots", () => {
    const after = [
      { path: "index.html", size: 10, mtime: "2026-01-01T00:00:05.000Z" },
      { path: "compositions/b.html", size: 3, mtime: "2026-01-01T00:00:05.000Z" },
      { path: "snapshots/frame-01-0.000s.png", size: 99, mtime: "2026-01-01T00:00:05.000Z" },
    ];
    const diff = diffFileListings(base, after);
    expect(diff.changed.map((f) => f.path)).toEqual(["index.html", "compositions/b.html"]);
    expect(diff.removed).toEqual(["assets/a.png"]);
    expect(diffFileListings(base, base)).toEqual({ changed: [], removed: [] });
  });
});

describe("runtime findings from the loader's lines", () => {
  it("maps page errors, console errors and blocked requests; failed-resource noise is left to request findings", () => {
    expect(runtimeFindingFromLine("page error: x is not defined")).toMatchObject({ code: "page-error", severity: "error" });
    expect(runtimeFindingFromLine("page console error: boom")).toMatchObject({ code: "console-error", message: "console.error: boom" });
    expect(runtimeFindingFromLine("page console error: Failed to load resource: the server responded with a status of 404")).toBeNull();
    expect(runtimeFindingFromLine("finding: blocked network access: stylesheet to https://fonts.example/x.css (compositions cannot reach the network)")).toMatchObject({
      code: "request-blocked",
      severity: "warning",
      message: "stylesheet to https://fonts.example/x.css was blocked: compositions load only project files and GSAP, and reach nothing else",
    });
    expect(runtimeFindingFromLine("loading composition index.html")).toBeNull();
  });
  it("maps a sub-composition's script error and a failed mount to findings on that file", () => {
    expect(runtimeFindingFromLine("finding: script error in compositions/intro.html: ReferenceError: foo is not defined")).toMatchObject({
      code: "page-error", severity: "error", file: "compositions/intro.html", message: "uncaught error in compositions/intro.html: ReferenceError: foo is not defined",
    });
    // The page's own errors arrive as "page error:" lines; a missing file as a missing-asset finding.
    expect(runtimeFindingFromLine("finding: script error in index.html: ReferenceError: foo is not defined")).toBeNull();
    expect(runtimeFindingFromLine("finding: sub-composition compositions/x.html did not mount: it could not be loaded: HTTP 404")).toBeNull();
    expect(runtimeFindingFromLine("finding: sub-composition compositions/x.html did not mount: it has no element with data-composition-id")).toMatchObject({
      code: "composition-load-failed", file: "compositions/x.html",
    });
  });
});
