// GIF defaults with real renders (real Chromium, real ffmpeg): the starter a new project gets, rendered as a 4 s
// draft GIF with no options, comes out 720 px wide at 15 fps and under 3 MB; options the request names still win.
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { GIF_DEFAULTS } from "../../core/render/render-options.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { probeStreams, readPixel } from "./inspect-video.ts";

let binaries: Binaries;
let project: string;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-gif-"));
  // What POST /api/projects writes for { name: "My First Video", duration: 4 } (worker/projects/create-project.ts).
  await writeFile(join(project, "index.html"), starterComposition({ compositionId: "my-first-video", title: "My First Video", duration: 4 }));
});

afterAll(() => rm(project, { recursive: true, force: true }));

async function renderGif(name: string, options: { fps?: number; resolution?: "square" } = {}) {
  const file = join(project, name);
  const result = await renderProject({
    projectDir: project, outputPath: file, format: "gif", quality: "draft", ...options, signal: new AbortController().signal,
  });
  const streams = await probeStreams(binaries.ffprobe, file);
  return { file, result, video: streams.find((s) => s.codec_type === "video"), bytes: (await stat(file)).size };
}

describe("GIF defaults", () => {
  it("renders the 4 s starter as a draft GIF 720 px wide at 15 fps, under 3 MB, title visible", async () => {
    const { file, result, video, bytes } = await renderGif("starter.gif");
    expect(GIF_DEFAULTS).toEqual({ width: 720, fps: 15 });
    expect(video).toMatchObject({ codec_name: "gif", width: 720, height: 405, nb_read_frames: "60" });
    expect(result).toMatchObject({ frames: 60, fpsText: "15", width: 720, height: 405 });
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
    // At 2 s the title is fully in: the middle of the frame has near-white glyph pixels (the palette kept them).
    const row = await Promise.all(Array.from({ length: 40 }, (_, i) => readPixel(binaries.ffmpeg, file, 720, 30, 200 + i * 8, 200)));
    expect(row.some(([r, g, b]) => r > 200 && g > 200 && b > 200), "white title pixels on row 200").toBe(true);
  }, 180_000);

  it("lets the request's fps and resolution win", async () => {
    const { video, result } = await renderGif("square-8fps.gif", { fps: 8, resolution: "square" });
    expect(video).toMatchObject({ codec_name: "gif", width: 1080, height: 1080, nb_read_frames: "32" });
    expect(result.fpsText).toBe("8");
  }, 180_000);
});
