// The page → node contract as data: what the runtime answers parses unchanged; each forged value is refused or
// left out with a problem naming its field; nothing forged comes back out.
import { describe, expect, it } from "vitest";
import { readCompositionInfo, readPageFindings } from "./read-composition-info.ts";
import {
  readFontFallbacks, readLayout, readPageBackgrounds, readSeekAnswer, readShaderDeclaration, readTimelineFacts, readVolumeAutomation, UNREADABLE_SEEK_ANSWER,
} from "./read-page-answers.ts";
import { pageReportFinding } from "./read-page-report.ts";
import type { CompositionInfo } from "./page-report.ts";

const ORIGIN = "http://127.0.0.1:4000";
const video = (index: number) => ({ index, src: `${ORIGIN}/assets/clip.mp4`, start: 0, duration: 1, mediaStart: 0, playbackRate: 1, loop: false });
const sound = { kind: "audio", src: `${ORIGIN}/assets/tone.wav`, start: -0.5, duration: null, mediaStart: 0.25, playbackRate: 2, volume: 1.5, fadeIn: 0, fadeOut: 0.5 };
const info: CompositionInfo = {
  compositionId: "main", width: 1920, height: 1080, duration: 4, fps: "30000/1001", timelines: ["main", "sub"],
  findings: [{ code: "page-error", severity: "error", file: "index.html", message: "script error in index.html: x", time: 1 }],
  audio: [sound as CompositionInfo["audio"][number]], videos: [video(0), video(1)],
};
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe("info()", () => {
  it("passes what the runtime answers unchanged", () => {
    expect(readCompositionInfo(structuredClone(info))).toEqual({ value: info, problems: [] });
    // A clip starting after its sub-composition ends has a negative duration: never heard, but no forgery.
    expect(readCompositionInfo({ ...info, audio: [{ ...sound, start: 5, duration: -2 }], videos: [{ ...video(0), duration: -2 }] }).problems).toEqual([]);
    for (const fps of [null, "24", "29.97", " 30000 / 1001 "]) expect(readCompositionInfo({ ...info, fps }).problems).toEqual([]);
  });

  it("leaves out each forged element, naming the field; valid neighbours stay", () => {
    const forged = {
      ...info,
      fps: "30,movie=/etc/passwd",
      timelines: ["main", "x".repeat(201), 7],
      findings: [{ ...info.findings[0], severity: "info" }, { ...info.findings[0], code: "nope" }, info.findings[0]],
      audio: [sound, { ...sound, start: "0;amovie=x" }, { ...sound, volume: 1e9 }, { ...sound, src: "/etc/passwd" }, { ...sound, src: `${ORIGIN}/a%zz` }],
      videos: [
        { ...video(0), playbackRate: "1,scale=320:180[a];movie=/x.png,[a]overlay" }, video(1), { ...video(2), index: "../../tmp/x" },
        { ...video(3), index: 7 }, { ...video(4), mediaStart: -1 }, { ...video(5), duration: 1e9 }, { ...video(6), loop: "yes" }, video(7),
      ],
    };
    const read = readCompositionInfo(forged);
    expect(fields(read.problems)).toEqual([
      "info().fps", "info().timelines[1]", "info().timelines[2]", "info().findings[0].severity", "info().findings[1].code",
      "info().audio[1].start", "info().audio[2].volume", "info().audio[3].src", "info().audio[4].src",
      "info().videos[0].playbackRate", "info().videos[2].index", "info().videos[3]", "info().videos[4].mediaStart",
      "info().videos[5].duration", "info().videos[6].loop",
    ]);
    expect(read.value?.fps).toBeNull();
    expect(read.value?.timelines).toEqual(["main"]);
    expect(read.value?.findings).toEqual([info.findings[0]]);
    expect(read.value?.audio).toEqual([sound]);
    // Only videos whose index is their own place remain: the node's folder names are integers it can trust.
    expect(read.value?.videos.map((v) => v.index)).toEqual([1, 7]);
    expect(read.problems.find((p) => p.field === "info().videos[3]")?.problem).toBe("has index 7 at position 3");
  });

  it("refuses the report on a forged root, and on NaN, ±Infinity (null over CDP) or wrong types anywhere in it", () => {
    for (const [key, value] of [["compositionId", ""], ["compositionId", "a\u0000b"], ["width", -5], ["height", null], ["duration", 1e9], ["duration", Number.NaN], ["width", "1920"]] as const) {
      const read = readCompositionInfo({ ...info, [key]: value });
      expect(read.value, key).toBeNull();
      expect(read.problems[0]?.field).toBe(`info().${key}`);
      expect(read.problems[0]?.outcome).toBe("the composition cannot be rendered from it");
    }
    for (const raw of [null, "info", [info], 42]) expect(readCompositionInfo(raw).value).toBeNull();
    // Lists that are not lists read as empty, with the problem; past their bound the rest is cut.
    const read = readCompositionInfo({ ...info, videos: { 0: video(0) }, findings: Array.from({ length: 1001 }, () => info.findings[0]) });
    expect(read.value?.videos).toEqual([]);
    expect(read.value?.findings).toHaveLength(1000);
    expect(read.problems.map((p) => `${p.field}: ${p.problem}`)).toEqual([
      "info().findings: has 1001 items, at most 1000 are read",
      "info().videos: is not a list (got an object)",
    ]);
  });

  it("makes each problem a page-report-invalid error naming the field, the value shortened", () => {
    const read = readCompositionInfo({ ...info, videos: [{ ...video(0), playbackRate: `1,${"x".repeat(10_000)}` }] });
    const finding = pageReportFinding("index.html", read.problems[0]!);
    expect(finding.code).toBe("page-report-invalid");
    expect(finding.severity).toBe("error");
    expect(finding.message).toMatch(/^the page reported an invalid info\(\)\.videos\[0\]\.playbackRate: .*\(got "1,x{55}\.\.\." \(10002 characters\)\); that video is left out \(it stays blank\)$/);
  });
});

describe("the page's other answers", () => {
  it("findings(): forged ones left out", () => {
    const read = readPageFindings([info.findings[0], { ...info.findings[0], time: Number.NaN }, "x"]);
    expect(read.value).toEqual([info.findings[0]]);
    expect(fields(read.problems)).toEqual(["findings()[1].time", "findings()[2]"]);
  });

  it("volumeAutomation(): one list per sound, a list with a bad sample left out whole", () => {
    const good = [{ time: 0, volume: 1 }, { time: 1, volume: 0.5 }];
    expect(readVolumeAutomation([good, []], 2)).toEqual({ value: [good, []], problems: [] });
    const read = readVolumeAutomation([good, [{ time: 0, volume: 1e9 }], [{ time: "0", volume: 1 }]], 3);
    expect(read.value).toEqual([good, [], []]);
    expect(fields(read.problems)).toEqual(["volumeAutomation()[1][0].volume", "volumeAutomation()[2][0].time"]);
    expect(readVolumeAutomation([good], 2)).toMatchObject({ value: [[], []], problems: [{ field: "volumeAutomation()" }] });
  });

  it("seekFrame: strings and null pass without zod; anything else is a capture with a problem", () => {
    expect(readSeekAnswer(null, 1)).toEqual({ value: null, problems: [] });
    expect(readSeekAnswer("a clip starts or ends", 1)).toEqual({ value: "a clip starts or ends", problems: [] });
    for (const raw of [{ toString: "x" }, 0, false, "x".repeat(501), ["why"]]) {
      const read = readSeekAnswer(raw, 0.5);
      expect(read.value).toBe(UNREADABLE_SEEK_ANSWER);
      expect(fields(read.problems)).toEqual(["seekFrame(0.500)"]);
    }
  });

  it("shader transitions: a forged head refuses the declaration, a forged transition is left out", () => {
    const t = { time: 1, duration: 0.5, shader: "glitch", fromScene: "a", toScene: "b" };
    expect(readShaderDeclaration(undefined)).toEqual({ value: null, problems: [] });
    expect(readShaderDeclaration({ bgColor: "#000", accentColor: null, transitions: [t] }).value?.transitions).toEqual([t]);
    const read = readShaderDeclaration({ bgColor: "#000", accentColor: null, transitions: [{ ...t, time: null }, { ...t, toScene: "x".repeat(300) }, t] });
    expect(read.value?.transitions).toEqual([t]);
    expect(fields(read.problems)).toEqual(["__studioShaderTransitions.transitions[0].time", "__studioShaderTransitions.transitions[1].toScene"]);
    expect(readShaderDeclaration({ bgColor: { r: 0 }, accentColor: null, transitions: [t] })).toMatchObject({ value: null, problems: [{ field: "__studioShaderTransitions.bgColor" }] });
  });

  it("fonts, backgrounds, check's timeline facts and layout", () => {
    expect(readFontFallbacks(["Inter", "x".repeat(301), 3])).toMatchObject({ value: ["Inter"], problems: [{ field: "fontFallbacks[1]" }, { field: "fontFallbacks[2]" }] });
    expect(readPageBackgrounds({ rootOpaque: true, bare: false })).toEqual({ value: { rootOpaque: true, bare: false }, problems: [] });
    expect(readPageBackgrounds({ rootOpaque: "yes", bare: false })).toMatchObject({ value: { rootOpaque: false, bare: false }, problems: [{ field: "pageBackgrounds.rootOpaque" }] });
    const fact = { id: "main", file: "index.html", declared: 4, timeline: 4 };
    expect(readTimelineFacts([fact, { ...fact, timeline: "4" }])).toMatchObject({ value: [fact], problems: [{ field: "timelineFacts[1].timeline" }] });
    const box = { x: 0, y: 0, width: 10, height: 10 };
    const element = { id: 0, ancestors: [], selector: "#a", file: "index.html", box, textBox: null, overflowX: 0, overflowY: 0, clipsX: false, clipsY: false, clippedByAncestor: false };
    expect(readLayout([element, { ...element, box: { ...box, x: null } }], 1)).toMatchObject({ value: [element], problems: [{ field: "layout(1)[1].box.x" }] });
  });
});
