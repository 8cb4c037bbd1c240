import { describe, expect, it } from "vitest";
import { percentLayers } from "./percent-layers.ts";
import { checkProjectPath, encodePath, isHiddenPath } from "./project-path.ts";
import { isSlug, slugify } from "./slugify.ts";

describe("slugify", () => {
  it.each([
    ["My First Video!", "my-first-video"],
    ["  Ça va — très bien ", "ca-va-tres-bien"],
    ["already-a-slug", "already-a-slug"],
    ["UPPER_and_lower 42", "upper-and-lower-42"],
    ["!!!", ""],
  ])("%j → %j", (name, slug) => expect(slugify(name)).toBe(slug));

  it("keeps slugs within 64 characters without a trailing hyphen", () => {
    const slug = slugify(`${"a".repeat(63)} b`);
    expect(slug.length).toBeLessThanOrEqual(64);
    expect(slug.endsWith("-")).toBe(false);
    expect(isSlug(slug)).toBe(true);
    expect(isSlug("-leading")).toBe(false);
  });
});

describe("checkProjectPath", () => {
  it("accepts project-relative paths, with or without a trailing slash for directories", () => {
    expect(checkProjectPath("assets/logo.png")).toEqual({ ok: true, path: "assets/logo.png", isDirectory: false });
    expect(checkProjectPath("assets%2Fmy%20logo.png")).toEqual({ ok: true, path: "assets/my logo.png", isDirectory: false });
    expect(checkProjectPath("assets/sub/")).toEqual({ ok: true, path: "assets/sub", isDirectory: true });
  });

  it.each([
    "../x", "a/../b", "..%2Fx", "%2e%2e/x", "%252e%252e%252fx", "a\\b", "a%5Cb", "/etc/passwd", "%2Fetc", "C:/x",
    "a%00b", "a\u0001b", "a//b", "./a", "", "%ZZ", "%25252e%25252e%25252fx", "a%2525255cb",
  ])("rejects %j", (raw) => {
    expect(checkProjectPath(raw).ok).toBe(false);
  });

  it("names the problem", () => {
    const result = checkProjectPath("..%2Fsecret");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/'\.\.'/);
  });

  it("tells hidden caches apart and encodes paths for URLs", () => {
    expect(isHiddenPath(".thumbnails/a.png")).toBe(true);
    expect(isHiddenPath("assets/.waveform-cache/w.json")).toBe(true);
    expect(isHiddenPath("assets/thumbnails.png")).toBe(false);
    expect(encodePath("assets/my logo#1.png")).toBe("assets/my%20logo%231.png");
  });
});

describe("percentLayers", () => {
  it("peels every layer of percent-encoding until nothing changes or the escapes break", () => {
    expect(percentLayers("%25252e%25252e")).toEqual(["%25252e%25252e", "%252e%252e", "%2e%2e", ".."]);
    expect(percentLayers("plain.txt")).toEqual(["plain.txt"]);
    expect(percentLayers("100%25%ZZ")).toEqual(["100%25%ZZ"]);
    expect(percentLayers("100%2525")).toEqual(["100%2525", "100%25", "100%"]);
  });
});
