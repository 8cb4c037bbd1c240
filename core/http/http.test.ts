import { describe, expect, it } from "vitest";
import { decodeBase64 } from "./base64.ts";
import { isUnsatisfiable, rangeBytes, singleRange } from "./byte-range.ts";
import { contentTypeFor } from "./content-type.ts";

describe("singleRange and isUnsatisfiable", () => {
  it.each([
    ["bytes=0-4", 10, { first: 0, last: 4 }, false],
    ["bytes=5-", 10, { first: 5, last: null }, false],
    ["bytes=-3", 10, { first: null, last: 3 }, false],
    ["bytes=-30", 10, { first: null, last: 30 }, false],
    ["bytes=8-100", 10, { first: 8, last: 100 }, false],
    ["bytes=10-", 10, { first: 10, last: null }, true],
    ["bytes=-0", 10, { first: null, last: 0 }, true],
    ["bytes=-5", 0, { first: null, last: 5 }, true],
  ] as const)("%j of %d bytes", (header, size, range, unsatisfiable) => {
    expect(singleRange(header)).toEqual(range);
    expect(isUnsatisfiable(singleRange(header)!, size)).toBe(unsatisfiable);
  });
  // Invalid (last before first, RFC 9110 §14.1.1), several, or not bytes: ignored, the whole file is sent.
  it.each(["bytes=5-2", "bytes=0-1,4-5", "items=0-1", "bytes=-", null])("ignores %j", (header) => {
    expect(singleRange(header)).toBeNull();
  });
});

describe("rangeBytes", () => {
  it("names the bytes of a satisfiable range, clamped to the end", () => {
    expect(rangeBytes(singleRange("bytes=0-")!, 10)).toEqual({ first: 0, last: 9 });
    expect(rangeBytes(singleRange("bytes=2-5")!, 10)).toEqual({ first: 2, last: 5 });
    expect(rangeBytes(singleRange("bytes=8-100")!, 10)).toEqual({ first: 8, last: 9 });
    expect(rangeBytes(singleRange("bytes=-3")!, 10)).toEqual({ first: 7, last: 9 });
    expect(rangeBytes(singleRange("bytes=-30")!, 10)).toEqual({ first: 0, last: 9 });
  });
});

describe("decodeBase64", () => {
  it("decodes standard and URL-safe alphabets, with or without padding and whitespace", () => {
    const bytes = Uint8Array.from([0, 255, 250, 1, 2]);
    expect(decodeBase64("AP/6AQI=")).toEqual(bytes);
    expect(decodeBase64("AP_6AQI")).toEqual(bytes);
    expect(decodeBase64("AP/6\nAQI=")).toEqual(bytes);
    expect(decodeBase64("")).toEqual(new Uint8Array(0));
  });

  it.each(["not base64!", "A", "AB=C", "====", "AP/6AQI==="])("rejects %j", (text) => {
    expect(decodeBase64(text)).toBeNull();
  });
});

describe("contentTypeFor", () => {
  it("knows composition, media and font types, and falls back to octet-stream", () => {
    expect(contentTypeFor("index.html")).toBe("text/html; charset=utf-8");
    expect(contentTypeFor("assets/a.MP3")).toBe("audio/mpeg");
    expect(contentTypeFor("out.mov")).toBe("video/quicktime");
    expect(contentTypeFor("f.woff2")).toBe("font/woff2");
    expect(contentTypeFor("data.xyz")).toBe("application/octet-stream");
    expect(contentTypeFor("Makefile")).toBe("application/octet-stream");
  });
  it("takes hono's table and adds the media a video project uses", () => {
    expect(contentTypeFor("doc.pdf")).toBe("application/pdf");
    expect(contentTypeFor("a/b.csv")).toBe("text/csv; charset=utf-8");
    expect(contentTypeFor("voice.wav")).toBe("audio/wav");
    expect(contentTypeFor("take.M4A")).toBe("audio/mp4");
    expect(contentTypeFor("notes.md")).toBe("text/markdown; charset=utf-8");
    expect(contentTypeFor("data.json")).toBe("application/json");
    expect(contentTypeFor("main.ts")).toBe("text/plain; charset=utf-8");
    expect(contentTypeFor("archive.tar.gz")).toBe("application/gzip");
  });
});
