// Pure parts of the node's browser jobs: preview change detection and which of the loader's findings check reports.
import { describe, expect, it } from "vitest";
import { missingAssetFinding } from "../../core/browser/missing-asset.ts";
import { makeFinding } from "../../core/protocol/finding.ts";
import { blockedAttemptFinding } from "../src/browser/blocked-attempt.ts";
import { isRuntimeFinding, runtimeSection } from "../src/browser-jobs/check-composition.ts";
import { diffFileListings } from "../src/browser-jobs/diff-file-listings.ts";

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

describe("runtime findings of check, from the loader's findings (data, never text)", () => {
  it("keeps blocked requests, missing assets and sub-composition script errors; render notes stay out", () => {
    const blocked = blockedAttemptFinding({ channel: "stylesheet", target: "https://fonts.example/x.css" });
    expect(isRuntimeFinding(blocked)).toBe(true);
    expect(isRuntimeFinding(makeFinding("page-error", "compositions/intro.html", "script error in compositions/intro.html: ReferenceError: foo is not defined"))).toBe(true);
    // The page's own errors are heard by check directly (pageerror): the runtime's copy would say it twice.
    expect(isRuntimeFinding(makeFinding("page-error", "index.html", "script error in index.html: ReferenceError: foo is not defined"))).toBe(false);
    // A root timeline's callback that threw while check sought a time was caught by the runtime: only it reports it.
    expect(isRuntimeFinding(makeFinding("page-error", "index.html", 'script error in index.html while seeking timeline "main": Error: x', { time: 1 }))).toBe(true);
    expect(isRuntimeFinding(makeFinding("gsap-version-substituted", "index.html", "GSAP 3.12.5 requested"))).toBe(false);
  });
  it("leaves out a sub-composition that did not mount because its file is missing, and says each finding once", () => {
    const missing = missingAssetFinding({ path: "compositions/x.html", referrer: "index.html", status: 404 });
    const unmounted = makeFinding("composition-load-failed", "compositions/x.html", "sub-composition compositions/x.html did not mount: it could not be loaded: HTTP 404", { asset: "compositions/x.html" });
    const noRoot = makeFinding("composition-load-failed", "compositions/y.html", "sub-composition compositions/y.html did not mount: it has no element with data-composition-id", { asset: "compositions/y.html" });
    const section = runtimeSection([missing, unmounted, noRoot, noRoot].filter((f) => isRuntimeFinding(f)));
    expect(section.map((f) => f.code)).toEqual(["missing-asset", "composition-load-failed"]);
    expect(section[1]).toEqual({ code: "composition-load-failed", severity: "error", file: "compositions/y.html", message: noRoot.message });
    expect(section[0]).toMatchObject({ file: "index.html", fixHint: expect.stringContaining("upload compositions/x.html") });
    expect(section[0]).not.toHaveProperty("asset");
  });
});
