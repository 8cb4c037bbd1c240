// Which frames of which files a render decodes for its <video> clips, as data: bounded by the render's window, one
// extraction per file, rate and in-point, folders numbered by the node; ffmpeg's arguments built from numbers the
// node formats; the scratch budget read from the environment.
import { expect, it } from "vitest";
import { buildExtractArgs, ffmpegSeconds } from "../src/media/build-extract-args.ts";
import {
  clipFrameSpans, heldFrame, mergeSpans, planVideoExtractions, plannedFrames, sourceClipFrames, type ClipToPlan,
} from "../src/media/plan-video-extractions.ts";
import { byteBudgetExceeded, DEFAULT_VIDEO_FRAMES, DEFAULT_VIDEO_FRAME_BYTES, frameBudgetRefusal } from "../src/media/scratch-budget.ts";
import { parseNodeConfig } from "../src/config/node-config.ts";

/** The scratch budget a node started with these variables has. */
const scratchBudget = (env: Record<string, string>) => parseNodeConfig({ STUDIO_URL: "http://studio.test", NODE_KEY: "stn_test", ...env }).scratchBudget;

const fps = { num: 30, den: 1 };
/** A whole 1 s composition at 30 fps seeks 0 to 29/30 s. */
const oneSecond = { from: 0, to: 29 / 30 };
const clip = (over: Partial<ClipToPlan> = {}): ClipToPlan => ({
  file: "/p/assets/long.mp4", name: "assets/long.mp4", start: 0, duration: 600, mediaStart: 0, playbackRate: 1, loopSeconds: null, ...over,
});

it("a clip's frames are what the window shows of it, whatever its data-duration", () => {
  expect(clipFrameSpans(clip(), oneSecond, fps)).toEqual([{ first: 1, last: 30 }]);
  expect(clipFrameSpans(clip({ duration: null }), oneSecond, fps)).toEqual([{ first: 1, last: 30 }]);
  // Starting at 0.5 s: frames 1 to 15 (frame 1 is also what the page asks for before the clip starts).
  expect(clipFrameSpans(clip({ start: 0.5 }), oneSecond, fps)).toEqual([{ first: 1, last: 15 }]);
  // Ending at 0.2 s: frames 1 to 7 (the page holds frame 7 after it).
  expect(clipFrameSpans(clip({ duration: 0.2 }), oneSecond, fps)).toEqual([{ first: 1, last: 7 }]);
  // A segment, 2 to 2.4 s, of a clip from 0.5 s: clip frames 46 to 58.
  expect(clipFrameSpans(clip({ start: 0.5 }), { from: 2, to: 2.4 }, fps)).toEqual([{ first: 46, last: 58 }]);
  // Nothing for a clip after the window, or one that ended before it.
  expect(clipFrameSpans(clip({ start: 1.5 }), oneSecond, fps)).toEqual([]);
  expect(clipFrameSpans(clip({ duration: 1 }), { from: 2, to: 2.4 }, fps)).toEqual([]);
});

it("a looping clip's frames are those of the cycle the window shows", () => {
  // A 600 s cycle in a 1 s composition: 30 frames, not 18,000.
  expect(clipFrameSpans(clip({ loopSeconds: 600 }), oneSecond, fps)).toEqual([{ first: 1, last: 30 }]);
  // A window longer than the cycle: the whole cycle (0.75 s: frames 1 to 23).
  expect(clipFrameSpans(clip({ loopSeconds: 0.75, duration: 2.5 }), { from: 0, to: 2.4 }, fps)).toEqual([{ first: 1, last: 23 }]);
  // 2 to 2.4 s wraps: 0.5 s into a cycle to 0.15 s into the next.
  expect(clipFrameSpans(clip({ loopSeconds: 0.75, duration: 2.5 }), { from: 2, to: 2.4 }, fps)).toEqual([{ first: 1, last: 5 }, { first: 16, last: 23 }]);
  // 1.6 to 1.9 s stays inside the third cycle (0.1 to 0.4 s).
  expect(clipFrameSpans(clip({ loopSeconds: 0.75, duration: 2.5 }), { from: 1.6, to: 1.9 }, fps)).toEqual([{ first: 4, last: 13 }]);
});

it("a clip on a speed ramp needs its source's frames at speed 1 for the times the window maps to, shared with speed 1", () => {
  // Speed 2 throughout: the segment 1 to 1.4 s of a clip from 0 is its file's 2 to 2.8 s, frames 61 to 85 at speed 1.
  expect(clipFrameSpans(clip({ ramp: [{ t: 0, v: 2, curve: 0 }] }), { from: 1, to: 1.4 }, fps)).toEqual([{ first: 61, last: 85 }]);
  // Looping, its cycle on the source's clock (1 s of file): 0.6 to 0.7 s is the file's 1.2 to 1.4 s, the second
  // cycle's 0.2 to 0.4 s, frames 7 to 13.
  expect(clipFrameSpans(clip({ ramp: [{ t: 0, v: 2, curve: 0 }], loopSeconds: 1 }), { from: 0.6, to: 0.7 }, fps)).toEqual([{ first: 7, last: 13 }]);
  // Half speed for a second, then 4: 0.5 s in is the file's 0.25 s (frame 8); a clip of the same file and in-point at
  // speed 1 (0.5 s: frame 16) shares its extraction.
  const slowFast = [{ t: 0, v: 0.5, curve: 0 }, { t: 1, v: 0.5, curve: 0 }, { t: 1.0001, v: 4, curve: 0 }];
  const plan = planVideoExtractions([clip({ ramp: slowFast }), clip()], { from: 0.5, to: 0.5 }, fps, 2);
  expect(plan.extractions).toHaveLength(1);
  expect(plan.clips.map((c) => c!.spans)).toEqual([[{ first: 8, last: 8 }], [{ first: 16, last: 16 }]]);
  // The output may cover the source seconds the ramp plays in the clip's 600 s, not 600.
  expect(plan.extractions[0]!.seconds).toBeGreaterThan(2000);
});

it("clips of one file from one in-point share one extraction at any speed, over the union of their frames", () => {
  const plan = planVideoExtractions([clip(), clip({ start: 0.5 }), clip({ duration: 0.2, loopSeconds: 40 })], oneSecond, fps, 1);
  expect(plan.extractions).toHaveLength(1);
  // A looping one too: its clip frame k is the file's same frame; only where the page starts it over differs.
  expect(plan.clips[2]?.loopSeconds).toBe(40);
  expect(plan.extractions[0]).toMatchObject({ folder: 0, spans: [{ first: 1, last: 30 }], clips: [0, 1, 2] });
  expect(plan.clips.map((c) => c?.extraction)).toEqual([0, 0, 0]);
  // Another in-point or file is another extraction; an unresolved clip (null) has none. Another rate is the same
  // file's frames (extracted at speed 1): twice as fast, one second of the window shows two of the file.
  const other = planVideoExtractions(
    [clip(), clip({ playbackRate: 2 }), clip({ mediaStart: 1 }), clip({ file: "/p/assets/b.mp4" }), null, clip()],
    oneSecond, fps, 1,
  );
  expect(other.extractions.map((e) => e.folder)).toEqual([0, 1, 2]);
  expect(other.clips.map((c) => c?.extraction ?? null)).toEqual([0, 0, 1, 2, null, 0]);
  expect(other.clips[1]?.spans).toEqual([{ first: 1, last: 59 }]);
  expect(other.extractions[0]!.spans).toEqual([{ first: 1, last: 59 }]);
  // Half as fast from 10 s into the clip: file seconds 5 to 5.5, frames 151 to 166.
  const slow = planVideoExtractions([clip({ playbackRate: 0.5 })], { from: 10, to: 11 }, fps, 20);
  expect(slow.extractions[0]!.spans).toEqual([{ first: 151, last: 166 }]);
  // Clips far apart in a segment: two stretches of one extraction, not the frames between them.
  const apart = planVideoExtractions([clip({ start: 2 }), clip({ start: -20 })], { from: 2, to: 2.4 }, fps, 3);
  expect(apart.extractions[0]!.spans).toEqual([{ first: 1, last: 13 }, { first: 661, last: 673 }]);
});

it("merges overlapping and adjacent spans only", () => {
  expect(mergeSpans([{ first: 10, last: 20 }, { first: 1, last: 5 }, { first: 6, last: 8 }, { first: 15, last: 30 }])).toEqual([
    { first: 1, last: 8 }, { first: 10, last: 30 },
  ]);
});

it("plans frames cut at the file's end, and each clip holds its own last frame", () => {
  // A 40 s file from its start at 30 fps has about 1201 clip frames; a 2 s file 61.
  expect(sourceClipFrames(40, 0, fps)).toBe(1201);
  expect(sourceClipFrames(2, 0.5, fps)).toBe(46);
  expect(sourceClipFrames(null, 0, fps)).toBeNull();
  expect(plannedFrames([{ first: 1, last: 18000 }], 61)).toBe(61);
  expect(plannedFrames([{ first: 1, last: 30 }, { first: 500, last: 530 }], 100)).toBe(31);
  expect(plannedFrames([{ first: 1, last: 30 }], null)).toBe(30);
  const written = [{ first: 1, last: 30 }, { first: 500, last: 500 }];
  expect(heldFrame(written, [{ first: 1, last: 30 }])).toBe(30);
  expect(heldFrame(written, [{ first: 500, last: 530 }])).toBe(500);
  expect(heldFrame([{ first: 1, last: 20 }], [{ first: 1, last: 30 }])).toBe(20);
  expect(heldFrame([], [{ first: 1, last: 30 }])).toBe(0);
});

it("formats the page's numbers for ffmpeg itself, and writes into the folder it is given", () => {
  expect(ffmpegSeconds(0.25)).toBe("0.25");
  expect(ffmpegSeconds(1 / 3)).toBe("0.333333");
  expect(ffmpegSeconds(12)).toBe("12");
  expect(ffmpegSeconds(1e-7)).toBe("0.000000");
  expect(() => ffmpegSeconds(Number.NaN)).toThrow();
  expect(() => ffmpegSeconds(-1)).toThrow();
  const args = buildExtractArgs({
    file: "/p/assets/long.mp4", out: "/w/video-frames/0", span: { first: 1, last: 30 }, maxFrames: 54_001, mediaStart: 0,
    seconds: 600, fps, fpsText: "30",
  });
  expect(args.slice(args.indexOf("-frames:v"), args.indexOf("-frames:v") + 2)).toEqual(["-frames:v", "30"]);
  expect(args[args.length - 1]).toBe("/w/video-frames/0/%06d.jpg");
  // A later span selects its frames by index and numbers them as a whole extraction does; the budget's room caps it.
  const later = buildExtractArgs({
    file: "/p/a.mp4", out: "/w/video-frames/3", span: { first: 46, last: 58 }, maxFrames: 5, mediaStart: 0.2,
    seconds: 3, fps, fpsText: "30",
  });
  expect(later).toEqual(expect.arrayContaining(["-ss", "0.2", "-vsync", "0", "-start_number", "46", "-vf", "fps=30,select='between(n\\,45\\,57)'"]));
  expect(later.slice(later.indexOf("-frames:v"), later.indexOf("-frames:v") + 2)).toEqual(["-frames:v", "5"]);
});

it("reads the scratch budget from the environment and names it in its messages", () => {
  expect(scratchBudget({})).toEqual({ videoFrameBytes: DEFAULT_VIDEO_FRAME_BYTES, videoFrames: DEFAULT_VIDEO_FRAMES });
  expect(scratchBudget({ VIDEO_FRAMES_MAX_BYTES: "1048576", VIDEO_FRAMES_MAX: "100" })).toEqual({ videoFrameBytes: 1048576, videoFrames: 100 });
  expect(() => scratchBudget({ VIDEO_FRAMES_MAX_BYTES: "4G" })).toThrow(/VIDEO_FRAMES_MAX_BYTES must be a whole number .*"4G"/);
  expect(() => scratchBudget({ VIDEO_FRAMES_MAX: "0" })).toThrow(/VIDEO_FRAMES_MAX must be/);
  expect(frameBudgetRefusal({ planned: 3600, budget: 1000, largest: { name: "assets/a.mp4", frames: 1200, clips: 3 } })).toBe(
    "the <video> clips need 3600 frames, over this node's budget of 1000 video frames per job (VIDEO_FRAMES_MAX); assets/a.mp4 (shown by 3 elements) alone needs 1200",
  );
  expect(byteBudgetExceeded({ name: "assets/a.mp4", bytes: 1.5 * 1024 ** 2, frames: 40, budget: 1024 ** 2 })).toMatch(
    /^extracting the frames of assets\/a\.mp4 passed this node's scratch budget of 1\.0 MiB .*\(VIDEO_FRAMES_MAX_BYTES\): 1\.5 MiB written in 40 frames/,
  );
});
