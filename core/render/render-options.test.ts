import { describe, expect, it } from "vitest";
import { describeRenderOptions, FORMAT_CONTENT_TYPES, isRenderFilename, nextRenderFilename, parseRenderOptions, renderFilename } from "./render-options.ts";

describe("parseRenderOptions", () => {
  it("applies the documented defaults", () => {
    expect(parseRenderOptions({})).toEqual({
      ok: true,
      options: { quality: "standard", fps: null, format: "mp4", composition: "index.html", resolution: null, strict: false, wait: false, strictVariables: false },
    });
  });

  it("takes variables within their limits and refuses the rest naming the limit", () => {
    expect(parseRenderOptions({ variables: { title: "Q4", n: 3, font: { name: "Inter", source: "x" } }, strictVariables: true }))
      .toMatchObject({ ok: true, options: { variables: { title: "Q4", n: 3, font: { name: "Inter", source: "x" } }, strictVariables: true } });
    const error = (variables: unknown) => (parseRenderOptions({ variables }) as { error: string }).error;
    expect(error(["a"])).toMatch(/^invalid variables: give a JSON object keyed by variable id/);
    expect(error(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])))).toBe("invalid variables: 101 keys; at most 100");
    expect(error({ big: "x".repeat(33_000) })).toMatch(/^invalid variables: \d+ bytes as JSON; at most 32768$/);
    expect(error({ a: { b: { c: { d: { e: { f: 1 } } } } } })).toBe("invalid variables: nested deeper than 5 levels");
    expect(error(JSON.parse('{"__proto__":{"polluted":true}}'))).toBe('invalid variables: key "__proto__" is reserved');
    expect(error({ "title\nrender done": 1 })).toBe('invalid variables: key "title\\nrender done" has control characters');
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("keeps rational fps exactly and accepts integer strings", () => {
    const r = parseRenderOptions({ fps: "30000/1001", format: "webm", quality: "draft", resolution: "portrait-4k" });
    expect(r).toMatchObject({ ok: true, options: { fps: "30000/1001", format: "webm", quality: "draft", resolution: "portrait-4k" } });
    expect(parseRenderOptions({ fps: "24" })).toMatchObject({ ok: true, options: { fps: 24 } });
  });

  it.each([
    [{ format: "avi" }, /^invalid format: "avi"; allowed values: mp4, webm, mov, gif, png-sequence$/],
    [{ quality: "ultra" }, /^invalid quality: "ultra"; allowed values: draft, standard, high$/],
    [{ resolution: "8k" }, /^invalid resolution: "8k"; allowed values: landscape, portrait, square, landscape-4k, portrait-4k$/],
    [{ fps: 0 }, /^invalid fps: 0/],
    [{ fps: 29.97 }, /^invalid fps: 29.97/],
    [{ fps: "30/0" }, /^invalid fps/],
    [{ fps: "1000/1" }, /^invalid fps/],
    [{ strict: "yes" }, /^invalid strict: "yes"; allowed values: true, false$/],
    [{ composition: "../x.html" }, /^invalid composition/],
    [{ composition: "assets/a.png" }, /^invalid composition/],
    [{ qualty: "high" }, /^unknown render option qualty/],
    [{ crf: 52 }, /^invalid crf: 52; give an integer from 0 to 51 for mp4$/],
    [{ crf: 64, format: "webm" }, /^invalid crf: 64; give an integer from 0 to 51 for mp4 or to 63 for webm$/],
    [{ crf: -1 }, /^invalid crf: -1; give an integer from 0 to 51 for mp4 or to 63 for webm$/],
    [{ crf: 20.5 }, /^invalid crf: 20.5; give an integer/],
    [{ crf: "20" }, /^invalid crf: "20"; give an integer/],
    [{ crf: 20, format: "mov" }, /^invalid crf: applies to mp4 and webm only, not mov$/],
    [{ crf: 20, format: "gif" }, /^invalid crf: applies to mp4 and webm only, not gif$/],
    [{ videoBitrate: "fast" }, /^invalid videoBitrate: "fast"; give bits per second such as "10M", "2500k" or "8000000", from 50k to 500M$/],
    [{ videoBitrate: "10k" }, /^invalid videoBitrate: "10k"; give bits per second/],
    [{ videoBitrate: "2G" }, /^invalid videoBitrate: "2G"; give bits per second/],
    [{ videoBitrate: "1e7" }, /^invalid videoBitrate: "1e7"/],
    [{ videoBitrate: 1000000 }, /^invalid videoBitrate: 1000000; give bits per second/],
    [{ videoBitrate: "5M", format: "png-sequence" }, /^invalid videoBitrate: applies to mp4 and webm only, not png-sequence$/],
    [{ crf: 20, videoBitrate: "5M" }, /^invalid videoBitrate: give either crf or videoBitrate, not both$/],
    [{ gifLoop: 3 }, /^invalid gifLoop: applies to gif only, not mp4$/],
    [{ gifLoop: 65536, format: "gif" }, /^invalid gifLoop: 65536; give an integer from 0 \(loop forever\) to 65535$/],
    [{ gifLoop: "forever", format: "gif" }, /^invalid gifLoop: "forever"; give an integer/],
  ])("rejects %j naming the option", (input, message) => {
    const r = parseRenderOptions(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it("takes crf, videoBitrate and gifLoop within HyperFrames' ranges", () => {
    expect(parseRenderOptions({ crf: 0 })).toMatchObject({ ok: true, options: { crf: 0 } });
    expect(parseRenderOptions({ crf: 63, format: "webm" })).toMatchObject({ ok: true, options: { crf: 63 } });
    for (const rate of ["10M", "2500k", "8000000", "0.5M", "1.5m", "500M"]) {
      expect(parseRenderOptions({ videoBitrate: rate, format: "webm" })).toMatchObject({ ok: true, options: { videoBitrate: rate } });
    }
    expect(parseRenderOptions({ gifLoop: 0, format: "gif" })).toMatchObject({ ok: true, options: { gifLoop: 0 } });
    expect(parseRenderOptions({ gifLoop: 65535, format: "gif" })).toMatchObject({ ok: true, options: { gifLoop: 65535 } });
    expect(parseRenderOptions({ format: "png-sequence" })).toMatchObject({ ok: true, options: { format: "png-sequence" } });
  });

  it("rejects a body that is not an object", () => {
    expect(parseRenderOptions([]).ok).toBe(false);
    expect(parseRenderOptions("mp4").ok).toBe(false);
  });
});

describe("renderFilename", () => {
  it("follows <slug>_<YYYY-MM-DD>_<HH-MM-SS>.<ext> in UTC", () => {
    const name = renderFilename("my-video", "webm", new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    expect(name).toBe("my-video_2026-01-02_03-04-05.webm");
    expect(isRenderFilename(name)).toBe(true);
    expect(isRenderFilename("../etc_2026-01-02_03-04-05.mp4")).toBe(false);
  });

  it("names a png-sequence's zip .zip", () => {
    const name = renderFilename("frames", "png-sequence", new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    expect(name).toBe("frames_2026-01-02_03-04-05.zip");
    expect(isRenderFilename(name)).toBe(true);
    expect(nextRenderFilename(name)).toBe("frames_2026-01-02_03-04-06.zip");
    expect(FORMAT_CONTENT_TYPES["png-sequence"]).toBe("application/zip");
  });
});

describe("nextRenderFilename", () => {
  it("moves the name one second on, across minute, day and year boundaries", () => {
    expect(nextRenderFilename("my-video_2026-01-02_03-04-05.webm")).toBe("my-video_2026-01-02_03-04-06.webm");
    expect(nextRenderFilename("a_2026-12-31_23-59-59.mp4")).toBe("a_2027-01-01_00-00-00.mp4");
    // A slug may hold digits and hyphens; only the date and time at the end move.
    expect(nextRenderFilename("q4-2026_2026-03-01_10-00-59.gif")).toBe("q4-2026_2026-03-01_10-01-00.gif");
  });
});

describe("describeRenderOptions", () => {
  it("names format, quality and fps, and resolution and composition only when set", () => {
    const parsed = parseRenderOptions({});
    if (!parsed.ok) throw new Error(parsed.error);
    expect(describeRenderOptions(parsed.options)).toBe("format mp4, quality standard, fps 30");
    const other = parseRenderOptions({ format: "webm", quality: "high", fps: 60, resolution: "portrait", composition: "scenes/intro.html" });
    if (!other.ok) throw new Error(other.error);
    expect(describeRenderOptions(other.options)).toBe("format webm, quality high, fps 60, resolution portrait, composition scenes/intro.html");
    const vars = parseRenderOptions({ variables: { title: "Q4", count: 2 }, strictVariables: true });
    if (!vars.ok) throw new Error(vars.error);
    expect(describeRenderOptions(vars.options)).toBe("format mp4, quality standard, fps 30, 2 variables (strict)");
    const tuned = parseRenderOptions({ format: "webm", videoBitrate: "2500k" });
    if (!tuned.ok) throw new Error(tuned.error);
    expect(describeRenderOptions(tuned.options)).toBe("format webm, quality standard, fps 30, videoBitrate 2500k");
    const gif = parseRenderOptions({ format: "gif", gifLoop: 1 });
    if (!gif.ok) throw new Error(gif.error);
    expect(describeRenderOptions(gif.options)).toBe("format gif, quality standard, fps 30, gifLoop 1");
    // A range names its ends as given, an open end in words.
    const range = parseRenderOptions({ from: "75f", to: "150f" });
    if (!range.ok) throw new Error(range.error);
    expect(describeRenderOptions(range.options)).toBe('format mp4, quality standard, fps 30, from "75f" to "150f"');
    const tail = parseRenderOptions({ from: 2.5 });
    if (!tail.ok) throw new Error(tail.error);
    expect(describeRenderOptions(tail.options)).toBe("format mp4, quality standard, fps 30, from 2.5 to the end");
  });
});
