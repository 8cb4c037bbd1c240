// The pure comparisons of the parity harness: a wrong MAD, frame pairing, level or onset would make every figure of
// bench/parity.ts wrong, so they are pinned here on small synthetic inputs (no HyperFrames, no ffmpeg).
import { describe, expect, it } from "vitest";
import { judge, levelWindows, meanAbsoluteDifference, onsetSeconds, pairFrames, parseRate, parseVolumeDetect, splitAlpha, type VideoFigures } from "./parity-compare.ts";

describe("meanAbsoluteDifference", () => {
  it("is 0 for equal frames and the mean of per-byte differences otherwise", () => {
    expect(meanAbsoluteDifference(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3))).toBe(0);
    // |10-0| + |0-10| + |255-250| + |0-1| = 26 over 4 bytes
    expect(meanAbsoluteDifference(Uint8Array.of(10, 0, 255, 0), Uint8Array.of(0, 10, 250, 1))).toBe(6.5);
  });

  it("refuses frames of different sizes", () => {
    expect(() => meanAbsoluteDifference(new Uint8Array(6), new Uint8Array(3))).toThrow(/differ in size/);
  });
});

describe("pairFrames", () => {
  it("pairs the same indices at the same rate, every step-th frame", () => {
    const same = { rate: parseRate("30/1"), frames: 12 };
    expect(pairFrames(same, same, 5).map((p) => [p.reference, p.candidate])).toEqual([[0, 0], [5, 5], [10, 10]]);
  });

  it("pairs a 24 fps reference with the 30 fps frame shown at the same time", () => {
    const pairs = pairFrames({ rate: parseRate("24"), frames: 48 }, { rate: parseRate("30/1"), frames: 60 }, 12);
    // middles of frames 0, 12, 24, 36 at 24 fps: 0.0208, 0.5208, 1.0208, 1.5208 s → 30 fps frames 0, 15, 30, 45
    expect(pairs.map((p) => p.candidate)).toEqual([0, 15, 30, 45]);
  });

  it("leaves out times past the candidate's last frame", () => {
    const pairs = pairFrames({ rate: parseRate("30"), frames: 60 }, { rate: parseRate("30"), frames: 30 }, 10);
    expect(pairs.map((p) => p.reference)).toEqual([0, 10, 20]);
  });

  it("handles rational rates", () => {
    const ntsc = { rate: parseRate("30000/1001"), frames: 30 };
    expect(pairFrames(ntsc, { rate: parseRate("30/1"), frames: 30 }, 29).map((p) => p.candidate)).toEqual([0, 29]);
    expect(() => parseRate("0/1")).toThrow(/not a frame rate/);
  });
});

describe("parseVolumeDetect", () => {
  it("reads mean and max volume, and null for silence", () => {
    const out = "[Parsed_volumedetect_0 @ 0x1] n_samples: 96000\n[Parsed_volumedetect_0 @ 0x1] mean_volume: -21.1 dB\n[Parsed_volumedetect_0 @ 0x1] max_volume: -18.0 dB\n";
    expect(parseVolumeDetect(out)).toEqual({ meanDb: -21.1, peakDb: -18 });
    expect(parseVolumeDetect("mean_volume: -inf dB\nmax_volume: -inf dB")).toBeNull();
    expect(parseVolumeDetect("no audio")).toBeNull();
  });
});

describe("onsetSeconds", () => {
  it("finds where a tone starts after silence, whatever its level", () => {
    const rate = 1000;
    const tone = (amplitude: number) => Int16Array.from({ length: 1000 }, (_, k) => (k < 250 ? 0 : Math.round(amplitude * Math.sin((k - 250) * 0.5))));
    expect(onsetSeconds(tone(8000), rate)).toBeCloseTo(0.252, 3);
    expect(onsetSeconds(tone(4000), rate)).toBeCloseTo(0.252, 3);
    expect(onsetSeconds(new Int16Array(100), rate)).toBeNull();
  });
});

describe("judge", () => {
  const shape = { rate: parseRate("30/1"), frames: 60, width: 640, height: 360 };
  const video = (mads: number[], candidate = shape): VideoFigures => ({ reference: shape, candidate, mads });
  const sound = { meanDb: -21, peakDb: -18, onset: 0.5 };

  it("passes identical renders and counts each failure apart", () => {
    const ok = judge(video([0.3, 0.4]), { reference: sound, candidate: { ...sound, meanDb: -21.2, onset: 0.52 } });
    expect(ok.filter((c) => !c.pass)).toEqual([]);
    expect(ok.map((c) => c.name)).toEqual(["fps", "duration", "frames mean MAD", "frames max MAD", "audio mean level", "audio peak level", "audio onset"]);
  });

  it("fails the max but not the mean for one bad frame, a 3 dB quieter mix, a late onset and a different rate", () => {
    const checks = judge(video([0.2, 0.2, 0.2, 3.0], { ...shape, rate: parseRate("24/1"), frames: 48 }), {
      reference: sound,
      candidate: { meanDb: -24, peakDb: -21, onset: 0.6 },
    });
    const failed = checks.filter((c) => !c.pass).map((c) => c.name);
    expect(failed).toEqual(["fps", "frames max MAD", "audio mean level", "audio peak level", "audio onset"]);
  });

  it("fails all audio checks when one side has no sound, and has none when neither has", () => {
    expect(judge(video([0]), { reference: sound, candidate: null }).filter((c) => !c.pass)).toHaveLength(3);
    expect(judge(video([0]), { reference: null, candidate: null })).toHaveLength(4);
  });
});

describe("levelWindows and the level over time", () => {
  const rate = 1000;
  /** 1 s of a full-scale square wave sounding only in [from, to) seconds. */
  const burst = (from: number, to: number) => Int16Array.from({ length: rate }, (_, k) => (k >= from * rate && k < to * rate ? (k % 2 ? 16384 : -16384) : 0));
  const shape = { rate: parseRate("10/1"), frames: 10, width: 2, height: 2 };
  const figures = (samples: Int16Array) => ({ meanDb: -6, peakDb: -6, onset: 0, windows: levelWindows(samples, rate) });

  it("measures each 100 ms window, silence at the floor", () => {
    expect(levelWindows(burst(0, 0.2), rate).map((db) => Math.round(db))).toEqual([-6, -6, -60, -60, -60, -60, -60, -60, -60, -60]);
  });

  it("fails a sound moved in time that the whole track's level and onset cannot tell apart", () => {
    const checks = judge({ reference: shape, candidate: shape, mads: [0] }, { reference: figures(burst(0, 0.1)), candidate: figures(burst(0.3, 0.4)) });
    expect(checks.filter((c) => !c.pass).map((c) => c.name)).toEqual(["audio level over time"]);
    expect(judge({ reference: shape, candidate: shape, mads: [0] }, { reference: figures(burst(0, 0.1)), candidate: figures(burst(0, 0.1)) }).every((c) => c.pass)).toBe(true);
  });
});

describe("splitAlpha", () => {
  it("premultiplies the colour by alpha and keeps the alpha plane apart", () => {
    // opaque red, half-transparent white, fully transparent green (its colour is invisible: 0)
    const { colour, alpha } = splitAlpha(Uint8Array.of(255, 0, 0, 255, 255, 255, 255, 128, 0, 255, 0, 0));
    expect([...alpha]).toEqual([255, 128, 0]);
    expect([...colour]).toEqual([255, 0, 0, 128, 128, 128, 0, 0, 0]);
    expect(() => splitAlpha(new Uint8Array(6))).toThrow(/not RGBA/);
  });

  it("makes two renders differing only under transparent pixels equal in colour", () => {
    const a = splitAlpha(Uint8Array.of(10, 20, 30, 0, 50, 60, 70, 255));
    const b = splitAlpha(Uint8Array.of(200, 0, 90, 0, 50, 60, 70, 255));
    expect(meanAbsoluteDifference(a.colour, b.colour)).toBe(0);
  });
});

describe("judge with alpha", () => {
  const shape = { rate: parseRate("30/1"), frames: 30, width: 640, height: 360 };
  const none = { reference: null, candidate: null };

  it("adds alpha checks only when alpha figures are given, and fails them on their own", () => {
    expect(judge({ reference: shape, candidate: shape, mads: [0.5] }, none).map((c) => c.name)).not.toContain("alpha mean MAD");
    const checks = judge({ reference: shape, candidate: shape, mads: [0.5, 0.6], alphaMads: [0.2, 40] }, none);
    expect(checks.filter((c) => !c.pass).map((c) => c.name)).toEqual(["alpha mean MAD", "alpha max MAD"]);
  });

  it("fails alpha when no frame was compared", () => {
    const checks = judge({ reference: shape, candidate: shape, mads: [0.5], alphaMads: [] }, none);
    expect(checks.find((c) => c.name === "alpha mean MAD")?.pass).toBe(false);
  });
});
