// A finished segment as a live piece (src/encode/live-piece.ts): remuxed by copy into a fragmented MP4 whose init
// and media parts the playlist names by byte range; H.264 (mp4) and VP9 (webm) alike, every frame kept. Real ffmpeg.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildLivePieceArgs, pieceParts } from "../src/encode/live-piece.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { probeStreams } from "./inspect-video.ts";

let binaries: Binaries;
let dir: string;
const signal = () => new AbortController().signal;

beforeAll(async () => {
  binaries = await resolveBinaries();
  dir = await mkdtemp(join(tmpdir(), "studio-live-piece-"));
});

describe("live pieces", () => {
  it.each([
    ["mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"], "h264"],
    ["webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"], "vp9"],
  ] as const)("%s: a 2 s segment becomes a fragmented MP4 of its 60 frames, its parts found", async (format, codec, name) => {
    const segment = join(dir, `segment.${format}`);
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=30", "-t", "2", ...codec, "-g", "60", segment], signal()).done;
    const piece = join(dir, `piece-${format}.mp4`);
    await runTool(binaries.ffmpeg, buildLivePieceArgs(segment, piece), signal()).done;
    const bytes = new Uint8Array(await readFile(piece));
    const parts = pieceParts(bytes)!;
    expect(parts).not.toBeNull();
    // The init part is ftyp and moov; the media part starts with moof.
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe("ftyp");
    expect(new TextDecoder().decode(bytes.subarray(parts.initBytes + 4, parts.initBytes + 8))).toBe("moof");
    expect(parts.mediaEnd).toBeLessThanOrEqual(bytes.length);
    const video = (await probeStreams(binaries.ffprobe, piece)).find((s) => s.codec_type === "video");
    expect(video).toMatchObject({ codec_name: name, nb_read_frames: "60" });
  });

  it("is not a piece without a fragment, nor with a box running past the end", () => {
    const box = (type: string, size: number) => {
      const b = new Uint8Array(size);
      new DataView(b.buffer).setUint32(0, size);
      b.set(new TextEncoder().encode(type), 4);
      return b;
    };
    const join2 = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
    expect(pieceParts(join2(box("ftyp", 16), box("moov", 24), box("moof", 16), box("mdat", 32), box("mfra", 16)))).toEqual({ initBytes: 40, mediaEnd: 88 });
    expect(pieceParts(join2(box("ftyp", 16), box("moov", 24), box("mdat", 32)))).toBeNull();
    expect(pieceParts(join2(box("ftyp", 16), box("moof", 16), box("mdat", 32)).subarray(0, 50))).toBeNull();
  });
});
