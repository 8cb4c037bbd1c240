import { describe, expect, it } from "vitest";
import { isActiveContentType, isPassiveContentType, mediaTypeOf } from "./active-content.ts";
import { contentTypeFor } from "./content-type.ts";

describe("active and passive content types", () => {
  it.each([
    "text/html; charset=utf-8",
    "TEXT/HTML",
    "application/xhtml+xml",
    "image/svg+xml",
    "application/xml",
    "text/xml",
    "text/javascript; charset=utf-8",
    "application/javascript",
    "application/pdf",
    "application/octet-stream",
    "text/xsl",
    "multipart/x-mixed-replace",
    "",
    "garbage",
  ])("%j is active", (type) => {
    expect(isActiveContentType(type)).toBe(true);
    expect(isPassiveContentType(type)).toBe(false);
  });

  it.each([
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/avif",
    "audio/mpeg",
    "audio/wav",
    "video/mp4",
    "video/webm",
    "video/quicktime",
    "font/woff2",
    "application/json; charset=utf-8",
    "text/plain; charset=utf-8",
    "text/css; charset=utf-8",
    " Image/PNG ; foo=bar",
  ])("%j is passive", (type) => {
    expect(isPassiveContentType(type)).toBe(true);
  });

  it("classifies what the files endpoint serves by extension: documents and scripts active, media passive", () => {
    const active = ["index.html", "a.htm", "logo.svg", "app.js", "mod.mjs", "doc.pdf", "data.xml", "page.xhtml", "no-extension", "x.unknown"];
    const passive = ["a.png", "a.jpg", "a.mp4", "a.mp3", "a.woff2", "meta.json", "notes.txt", "style.css"];
    expect(active.filter((p) => isPassiveContentType(contentTypeFor(p)))).toEqual([]);
    expect(passive.filter((p) => isActiveContentType(contentTypeFor(p)))).toEqual([]);
  });

  it("reads the bare media type", () => {
    expect(mediaTypeOf("Text/HTML; charset=UTF-8")).toBe("text/html");
  });
});
