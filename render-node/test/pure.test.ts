// Pure pieces tested as data: option validation, frame counts, ranges, ffmpeg arguments, progress lines.
import { describe, expect, it } from "vitest";
import { audioTrackName, buildAudioMixArgs, buildAudioTrackArgs } from "../src/media/build-audio-mix-args.ts";
import { buildChunkArgs, buildConcatList, buildGifArgs, buildJoinArgs, ENCODER_SETTINGS } from "../src/encode/build-encode-args.ts";
import { applyDeclaredFps, computeViewport, countFrames, settleRender } from "../src/plan/settle-render.ts";
import type { Finding } from "../../core/protocol/finding.ts";
import { matchGsapUrl } from "../../core/composition/match-gsap-url.ts";
import { frameTime, resolveRender, RenderOptionError } from "../src/plan/resolve-render.ts";
import { injectRuntime } from "../src/browser/serve-project.ts";
import { splitFrameRanges } from "../src/capture/split-frame-ranges.ts";
import { formatProgressLine } from "../src/progress/track-progress.ts";

describe("resolveRender", () => {
  it("fills the defaults", () => {
    expect(resolveRender({})).toEqual({
      quality: "standard", format: "mp4", fps: { num: 30, den: 1 }, fpsText: "30", fpsGiven: false, resolution: undefined, composition: "index.html", strict: false,
      variables: undefined, strictVariables: false,
    });
  });
  it("gives a GIF 15 fps unless the request names one", () => {
    expect(resolveRender({ format: "gif" })).toMatchObject({ fps: { num: 15, den: 1 }, fpsText: "15", fpsGiven: false });
    expect(resolveRender({ format: "gif", fps: 30 })).toMatchObject({ fpsText: "30", fpsGiven: true });
  });
  it("keeps rational fps exact", () => {
    expect(resolveRender({ fps: "30000/1001" })).toMatchObject({ fps: { num: 30000, den: 1001 }, fpsText: "30000/1001" });
    expect(resolveRender({ fps: "60/2" }).fpsText).toBe("30");
    expect(resolveRender({ fps: 24 }).fpsText).toBe("24");
  });
  it.each([
    [{ quality: "ultra" }, "quality", /draft, standard, high/],
    [{ format: "avi" }, "format", /mp4, webm, mov, gif/],
    [{ resolution: "8k" }, "resolution", /landscape, portrait, square, landscape-4k, portrait-4k/],
    [{ fps: "abc" }, "fps", /30000\/1001/],
    [{ fps: 0 }, "fps", /integer from 1 to 120/],
    [{ fps: "30/0" }, "fps", /"30\/0"/],
    [{ composition: "../x.html" }, "composition", /project-relative/],
    [{ composition: "assets/a.png" }, "composition", /\.html/],
  ])("rejects %j naming the option", (raw, option, allowed) => {
    let error: unknown;
    try {
      resolveRender(raw);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RenderOptionError);
    expect((error as RenderOptionError).option).toBe(option);
    expect((error as Error).message).toMatch(new RegExp(`^invalid ${option}: `));
    expect((error as Error).message).toMatch(allowed);
  });
});

describe("countFrames", () => {
  it("rounds duration × fps", () => {
    expect(countFrames(2, { num: 30, den: 1 })).toBe(60);
    expect(countFrames(2, { num: 30000, den: 1001 })).toBe(60);
    expect(countFrames(10, { num: 30000, den: 1001 })).toBe(300);
    expect(countFrames(6, { num: 24000, den: 1001 })).toBe(144);
    expect(countFrames(0.1, { num: 30, den: 1 })).toBe(3);
    expect(countFrames(0.01, { num: 30, den: 1 })).toBe(1);
    expect(frameTime(45, { num: 30000, den: 1001 })).toBeCloseTo(1.5015, 6);
  });
});

describe("splitFrameRanges", () => {
  it("makes contiguous, even ranges", () => {
    expect(splitFrameRanges(10, 3)).toEqual([{ start: 0, end: 4 }, { start: 4, end: 7 }, { start: 7, end: 10 }]);
    expect(splitFrameRanges(2, 4)).toEqual([{ start: 0, end: 1 }, { start: 1, end: 2 }]);
  });
});

describe("ffmpeg arguments", () => {
  it("reads timestamped JPEGs into a closed-GOP x264 chunk at the exact rational rate, held frames filled in", () => {
    expect(buildChunkArgs({ format: "mp4", quality: "standard", fpsText: "30000/1001", gopFrames: 60, output: "/w/c0.mp4" })).toEqual([
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
      "-probesize", "32", "-analyzeduration", "0", "-filter_threads", "1",
      "-f", "ivf", "-c:v", "mjpeg", "-i", "-",
      "-vf", expect.stringMatching(/scale=in_color_matrix=bt601:in_range=pc:out_color_matrix=bt709:out_range=tv:flags=neighbor\+accurate_rnd\+full_chroma_int,format=yuv420p$/),
      "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-threads", "1",
      "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
      "-g", "60", "-keyint_min", "60", "-flags", "+cgop",
      "-vsync", "cfr", "-r", "30000/1001", "-an", "-fflags", "+bitexact", "/w/c0.mp4",
    ]);
  });
  it("encodes draft and standard x264 on one thread (one encoder per browser), high with frame threads", () => {
    const args = (quality: "draft" | "standard" | "high") => buildChunkArgs({ format: "mp4", quality, fpsText: "30", gopFrames: 60, output: "c.mp4" }).join(" ");
    expect(args("draft")).toContain("-preset ultrafast -crf 28 -threads 1");
    expect(args("standard")).toContain("-preset veryfast -crf 20 -threads 1");
    expect(args("high")).not.toContain("-threads");
  });
  it("uses prores_aw for mov and copies JPEGs for gif chunks", () => {
    const mov = buildChunkArgs({ format: "mov", quality: "high", fpsText: "25", gopFrames: 50, output: "c.mov" });
    expect(mov.join(" ")).toContain("-c:v prores_aw -profile:v 3");
    expect(mov).not.toContain("-g");
    const gif = buildChunkArgs({ format: "gif", quality: "draft", fpsText: "15", gopFrames: 30, output: "c.mkv" });
    expect(gif.join(" ")).toContain("-i - -c:v copy -r 15 -an -fflags +bitexact c.mkv");
    const fitted = buildChunkArgs({ format: "gif", quality: "draft", fpsText: "15", gopFrames: 30, fit: { width: 1080, height: 1080 }, output: "c.mkv" });
    // 4:4:4 so an odd output height (720x405) is allowed.
    expect(fitted.join(" ")).toContain("-vf scale=1080:1080:force_original_aspect_ratio=decrease,format=yuvj444p,pad=1080:1080:(ow-iw)/2:(oh-ih)/2:black -c:v mjpeg");
  });
  it("vp9 per quality", () => {
    expect(buildChunkArgs({ format: "webm", quality: "draft", fpsText: "30", gopFrames: 60, output: "c.webm" }).join(" "))
      .toContain("-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 40 -b:v 0 -row-mt 1");
  });
  it("joins with the concat demuxer as a pure remux: video and the mixed audio track copied, mp4 faststarted", () => {
    const args = buildJoinArgs({ format: "mp4", quality: "standard", listFile: "l.txt", audio: "a.m4a", output: "o.mp4" });
    expect(args).toEqual([
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "concat", "-safe", "0", "-i", "l.txt",
      "-i", "a.m4a", "-map", "0:v", "-map", "1:a", "-c:a", "copy", "-c:v", "copy", "-movflags", "+faststart", "o.mp4",
    ]);
    // Nothing is encoded or filtered after the last frame.
    for (const format of ["mp4", "webm", "mov"] as const) {
      const join = buildJoinArgs({ format, quality: "high", listFile: "l.txt", audio: "a", output: "o" }).join(" ");
      expect(join).not.toMatch(/filter|-c:a (?!copy)|-c:v (?!copy)|-b:a/);
    }
    expect(buildJoinArgs({ format: "mov", quality: "draft", listFile: "l.txt", audio: null, output: "o.mov" }).join(" ")).toContain("-map 0:v -an -c:v copy -colorspace smpte170m -color_primaries bt709 -color_trc bt709 -color_range tv -movflags +write_colr o.mov");
  });
  it("encodes the audio track with the output's own codec, into a container that holds it", () => {
    const mix = { inputs: ["-i", "a.wav"], filter: "F", outputLabel: "aout" };
    expect(buildAudioTrackArgs(mix, ENCODER_SETTINGS.mp4.standard.audio, "t.m4a")).toEqual([
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", "a.wav", "-filter_complex", "F", "-map", "[aout]", "-c:a", "aac", "-b:a", "192k", "t.m4a",
    ]);
    expect(buildAudioTrackArgs(mix, ENCODER_SETTINGS.webm.high.audio, "t.webm").join(" ")).toContain("-c:a libopus -b:a 192k t.webm");
    expect([audioTrackName("mp4"), audioTrackName("webm"), audioTrackName("mov"), audioTrackName("png-sequence")]).toEqual(["audio.m4a", "audio.opus", "audio.mov", "audio.m4a"]);
  });
  it("makes GIFs in two palette passes (draft: 96 colours, coarse Bayer)", () => {
    const draft = buildGifArgs({ quality: "draft", listFile: "l.txt", palette: "p.png", output: "o.gif" });
    expect(draft.palette.slice(-2, -1)).toEqual(["palettegen=max_colors=96"]);
    expect(draft.encode).toContain("[0:v][1:v]paletteuse=dither=bayer:bayer_scale=5");
    const gif = buildGifArgs({ quality: "standard", listFile: "l.txt", palette: "p.png", output: "o.gif" });
    expect(gif.palette.slice(-3)).toEqual(["-vf", "palettegen=max_colors=256", "p.png"]);
    expect(gif.encode.slice(-8)).toEqual(["-i", "p.png", "-lavfi", "[0:v][1:v]paletteuse=dither=sierra2_4a", "-an", "-loop", "0", "o.gif"]);
  });
  it("keeps alpha from PNG frames for webm (yuva420p, alpha_mode) and mov (ProRes 4444), not for mp4", () => {
    const webm = buildChunkArgs({ format: "webm", quality: "standard", fpsText: "30", gopFrames: 60, output: "c.webm", alpha: true }).join(" ");
    expect(webm).toContain("-c:v png -i -");
    expect(webm).toContain("format=yuva420p");
    expect(webm).toContain("-auto-alt-ref 0 -metadata:s:v:0 alpha_mode=1");
    const mov = buildChunkArgs({ format: "mov", quality: "draft", fpsText: "30", gopFrames: 60, output: "c.mov", alpha: true }).join(" ");
    expect(mov).toContain("-c:v prores_aw -profile:v 4 -vendor apl0 -pix_fmt yuva444p10le");
    const mp4 = buildChunkArgs({ format: "mp4", quality: "draft", fpsText: "30", gopFrames: 60, output: "c.mp4", alpha: true }).join(" ");
    expect(mp4).toContain("-c:v mjpeg -i -");
    expect(mp4).not.toContain("yuva");
    expect(buildJoinArgs({ format: "webm", quality: "draft", listFile: "l", audio: null, output: "o.webm", alpha: true }).join(" ")).toContain("alpha_mode=1");
  });
  it("writes a png-sequence's PNGs untouched, numbered by the render's frame from 1", () => {
    const args = buildChunkArgs({ format: "png-sequence", quality: "draft", fpsText: "30", gopFrames: 60, output: "/w/chunk-001.frames", firstFrame: 45 });
    expect(args.join(" ")).toContain("-c:v png -i - -c:v copy -f image2 -start_number 46 /w/chunk-001.frames/frame_%06d.png");
  });
  it("puts an explicit crf in place of the quality's, and a bitrate with a two-second buffer in place of the crf", () => {
    const crf = buildChunkArgs({ format: "mp4", quality: "high", fpsText: "30", gopFrames: 60, output: "c.mp4", rate: { crf: 30 } }).join(" ");
    expect(crf).toContain("-preset medium -crf 30 ");
    const vp9 = buildChunkArgs({ format: "webm", quality: "draft", fpsText: "30", gopFrames: 60, output: "c.webm", rate: { videoBitrate: "2.5M" } }).join(" ");
    expect(vp9).not.toContain("-crf");
    expect(vp9).not.toContain("-b:v 0");
    expect(vp9).toContain("-b:v 2500000 -maxrate 2500000 -bufsize 5000000");
  });
  it("writes the GIF's loop count", () => {
    expect(buildGifArgs({ quality: "draft", listFile: "l", palette: "p", output: "o.gif", loop: 3 }).encode.slice(-3)).toEqual(["-loop", "3", "o.gif"]);
  });
  it("quotes concat list paths", () => {
    expect(buildConcatList(["/a/b.mp4", "/it's.mp4"])).toBe("file '/a/b.mp4'\nfile '/it'\\''s.mp4'\n");
  });
  it("places audio clips on the timeline", () => {
    const mix = buildAudioMixArgs(
      [
        { file: "a.wav", start: 0.5, duration: 1, mediaStart: 0, volume: 0.8 },
        { file: "b.mp3", start: 2, duration: undefined, mediaStart: 1.25, volume: 1 },
        { file: "late.wav", start: 9, duration: 1, mediaStart: 0, volume: 1 },
      ],
      4,
    );
    expect(mix).toEqual({
      inputs: ["-i", "a.wav", "-i", "b.mp3"],
      filter:
        "anullsrc=r=48000:cl=stereo,atrim=duration=4[base];" +
        "[0:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,atrim=start=0:duration=1,asetpts=PTS-STARTPTS,volume=0.8,adelay=500|500,apad[a0];" +
        "[1:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,atrim=start=1.25,asetpts=PTS-STARTPTS,volume=1,adelay=2000|2000,apad[a1];" +
        "[base][a0][a1]amix=inputs=3:duration=first:dropout_transition=0,volume=3[aout]",
      outputLabel: "aout",
    });
    expect(buildAudioMixArgs([], 4)).toBeNull();
  });
  it("plays a clip at its data-playback-rate: trimmed in the file's seconds, atempo within 0.5-2 per stage, gains on the timeline", () => {
    const mix = buildAudioMixArgs([{ file: "a.wav", start: -0.5, duration: 2, mediaStart: 1, playbackRate: 3, volume: 1, fadeOut: 0.5 }], 4);
    // 0.5 s of the timeline cut from its head is 1.5 s of the file; the 1.5 s left of the clip are 4.5 s of it.
    expect(mix?.filter).toContain("atrim=start=2.5:duration=4.5,asetpts=PTS-STARTPTS,atempo=2,atempo=1.5,volume=1,afade=t=out:st=1:d=0.5,adelay=0|0");
    const slow = buildAudioMixArgs([{ file: "a.wav", start: 0, duration: 1, mediaStart: 0, playbackRate: 0.2, volume: 1 }], 4);
    expect(slow?.filter).toContain("atrim=start=0:duration=0.2,asetpts=PTS-STARTPTS,atempo=0.5,atempo=0.5,atempo=0.8,volume=1");
    expect(buildAudioMixArgs([{ file: "a.wav", start: 0, duration: 1, mediaStart: 0, playbackRate: 1, volume: 1 }], 4)?.filter).not.toContain("atempo");
  });
  it("copies a mono clip to both channels at full level (ffmpeg's own up-mix is 3 dB down)", () => {
    const mix = buildAudioMixArgs([{ file: "m.wav", start: 0, duration: 1, mediaStart: 0, volume: 1, channels: 1 }], 2);
    expect(mix?.filter).toContain("[0:a]pan=stereo|c0=c0|c1=c0,aformat=");
    const stereo = buildAudioMixArgs([{ file: "s.wav", start: 0, duration: 1, mediaStart: 0, volume: 1, channels: 2 }], 2);
    expect(stereo?.filter).not.toContain("pan=");
  });
});

describe("applyDeclaredFps", () => {
  const defaults = resolveRender({});
  it("takes the root's data-fps when the request gave none, rationals exactly", () => {
    expect(applyDeclaredFps(defaults, false, "24").options).toMatchObject({ fps: { num: 24, den: 1 }, fpsText: "24" });
    expect(applyDeclaredFps(defaults, false, "30000/1001").options).toMatchObject({ fps: { num: 30000, den: 1001 }, fpsText: "30000/1001" });
  });
  it("lets an explicit fps win, and keeps 30 without data-fps", () => {
    expect(applyDeclaredFps(resolveRender({ fps: 25 }), true, "24").options.fpsText).toBe("25");
    expect(applyDeclaredFps(defaults, false, null).options.fpsText).toBe("30");
  });
  it("keeps a GIF at 15 fps unless the root's data-fps is lower", () => {
    const gif = resolveRender({ format: "gif" });
    expect(applyDeclaredFps(gif, false, "30").options.fpsText).toBe("15");
    expect(applyDeclaredFps(gif, false, "10").options.fpsText).toBe("10");
    expect(applyDeclaredFps(resolveRender({ format: "gif", fps: 24 }), true, "10").options.fpsText).toBe("24");
  });
  it("keeps the default and says so for a data-fps that is not a rate", () => {
    const result = applyDeclaredFps(defaults, false, "fast");
    expect(result.options.fpsText).toBe("30");
    expect(result.finding).toMatch(/^data-fps="fast" on the root is not a frame rate/);
  });
});

describe("settleRender", () => {
  const page = { width: 1920, height: 1080, duration: 2, fps: "24" as string | null, compositionId: "main" };
  it("settles the rate, the frames and the viewport on what the loaded page reported, in one step", () => {
    const settled = settleRender(resolveRender({ resolution: "landscape-4k" }), page, () => {});
    expect(settled.options).toMatchObject({ fps: { num: 24, den: 1 }, fpsText: "24" });
    expect(settled.frames).toBe(48);
    expect(settled.viewport).toMatchObject({ deviceScaleFactor: 2, outputWidth: 3840 });
  });
  it("says a data-fps that is not a rate before it refuses a page with no duration", () => {
    const findings: Finding[] = [];
    expect(() => settleRender(resolveRender({}), { ...page, fps: "fast", duration: 0 }, (f) => findings.push(f))).toThrow('composition "main" has no duration');
    expect(findings.map((f) => f.code)).toEqual(["fps-not-a-rate"]);
  });
  it("checks the page against the studio's limits at the settled rate, and a png-sequence's length", () => {
    const long = { ...page, fps: null, duration: 1801 };
    expect(() => settleRender(resolveRender({ fps: 120 }), long, () => {})).toThrow(
      'composition index.html is over the studio\'s limits: data-duration 1801 at 120 fps is 216,120 frames, over the maximum of 216,000 frames',
    );
    expect(settleRender(resolveRender({}), long, () => {}).frames).toBe(54_030);
    expect(() => settleRender(resolveRender({ format: "png-sequence" }), { ...page, duration: 600 }, () => {})).toThrow(/^a png-sequence holds at most/);
  });
});

describe("small pure helpers", () => {
  it("matches GSAP CDN URLs", () => {
    expect(matchGsapUrl("https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js")).toEqual({ version: "3.14.2", file: "gsap.min.js" });
    expect(matchGsapUrl("https://unpkg.com/gsap@3.12.5/dist/ScrollTrigger.min.js")).toEqual({ version: "3.12.5", file: "ScrollTrigger.min.js" });
    expect(matchGsapUrl("https://cdnjs.cloudflare.com/ajax/libs/gsap/3.14.2/gsap.min.js")).toEqual({ version: "3.14.2", file: "gsap.min.js" });
    expect(matchGsapUrl("https://example.com/gsap.min.js")).toBeNull();
  });
  it("injects the runtime first in head", () => {
    expect(injectRuntime("<html><head><title>x</title>", "render")).toBe(
      '<html><head><script src="/__studio/runtime.js" data-mode="render"></script><title>x</title>',
    );
  });
  it("formats progress lines", () => {
    expect(formatProgressLine({ frame: 120, total: 180, fps: 14.23, etaSeconds: 4.2, reused: 0 })).toBe("frame 120/180 (67%), 14.2 fps, ETA 5 s");
  });
  it("scales by deviceScaleFactor", () => {
    expect(computeViewport(1920, 1080, "landscape-4k")).toMatchObject({ deviceScaleFactor: 2, captureWidth: 3840, outputWidth: 3840 });
    expect(computeViewport(1280, 720, undefined)).toMatchObject({ deviceScaleFactor: 1, outputWidth: 1280, outputHeight: 720 });
  });
  it("scales a GIF down to 720 px wide keeping the aspect, never up, and lets a preset win", () => {
    expect(computeViewport(1920, 1080, undefined, "gif")).toMatchObject({ captureWidth: 1920, outputWidth: 720, outputHeight: 405 });
    expect(computeViewport(1080, 1920, undefined, "gif")).toMatchObject({ outputWidth: 720, outputHeight: 1280 });
    expect(computeViewport(320, 180, undefined, "gif")).toMatchObject({ outputWidth: 320, outputHeight: 180 });
    expect(computeViewport(1920, 1080, "square", "gif")).toMatchObject({ outputWidth: 1080, outputHeight: 1080 });
    expect(computeViewport(1920, 1080, undefined, "mp4")).toMatchObject({ outputWidth: 1920, outputHeight: 1080 });
  });
});
