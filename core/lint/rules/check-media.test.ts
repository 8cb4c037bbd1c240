import { describe, expect, it } from "vitest";
import { buildComposition, codesOf, lintFiles } from "../test-fixtures.ts";

const withBody = (body: string) => lintFiles({ "index.html": buildComposition({ body }), "assets/music.mp3": 5000, "assets/clip.mp4": 9000, "music.mp3": 5000 });

describe("media rules", () => {
  it("accepts well-formed audio and video", () => {
    expect(withBody('<audio src="assets/music.mp3" data-start="0" data-duration="6" data-track-index="2"></audio>').findings).toEqual([]);
    expect(withBody('<video src="assets/clip.mp4" muted playsinline data-start="1" data-duration="3"></video>').findings).toEqual([]);
    expect(withBody('<video muted data-start="0"><source src="assets/clip.mp4" type="video/mp4"></video>').findings).toEqual([]);
  });

  it("reports audio_missing_attribute (an error, as HyperFrames' media_missing_data_start) for an <audio> without data-start", () => {
    const result = withBody('<audio src="assets/music.mp3" data-duration="6" data-track-index="2"></audio>');
    expect(codesOf(result)).toEqual(["audio_missing_attribute"]);
    expect(result.findings[0]).toMatchObject({ severity: "error", message: expect.stringContaining("data-start") });
  });

  it("only warns, as a studio rule, for an <audio> without data-duration or data-track-index (it renders the same)", () => {
    const result = withBody('<audio src="assets/music.mp3" data-start="0"></audio>');
    expect(codesOf(result)).toEqual(["audio_missing_optional_attribute"]);
    expect(result.findings[0]).toMatchObject({ severity: "warning", message: expect.stringMatching(/^studio rule: .*data-duration, data-track-index/) });
  });

  it("warns with audio_src_outside_assets, as a studio rule", () => {
    const result = withBody('<audio src="music.mp3" data-start="0" data-duration="6" data-track-index="2"></audio>');
    expect(codesOf(result)).toEqual(["audio_src_outside_assets"]);
    expect(result.findings[0]!.message).toMatch(/^studio rule: /);
  });

  it("reports media_missing_src for audio and video without a source", () => {
    expect(codesOf(withBody('<audio data-start="0" data-duration="6" data-track-index="2"></audio>'))).toEqual(["media_missing_src"]);
    expect(codesOf(withBody('<video muted data-start="0"></video>'))).toEqual(["media_missing_src"]);
  });

  it("warns with video_not_muted, as a studio rule: an unmuted video's sound is mixed, the render is not broken", () => {
    const result = withBody('<video src="assets/clip.mp4" data-start="0"></video>');
    expect(codesOf(result)).toEqual(["video_not_muted"]);
    expect(result.findings[0]).toMatchObject({ severity: "warning", selector: 'video[src="assets/clip.mp4"]', message: expect.stringMatching(/^studio rule: /) });
  });

  it("says nothing of a video that declares its sound with data-has-audio (HyperFrames' warm-grain template)", () => {
    expect(withBody('<video src="assets/clip.mp4" playsinline data-has-audio="true" data-start="0" data-duration="3"></video>').findings).toEqual([]);
    expect(withBody('<video src="assets/clip.mp4" data-has-audio="false" data-start="0"></video>').findings).toEqual([]);
  });

  it("reports video_missing_attribute without data-start", () => {
    expect(codesOf(withBody('<video src="assets/clip.mp4" muted></video>'))).toEqual(["video_missing_attribute"]);
  });
});
