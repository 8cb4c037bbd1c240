// A test video of flat colours one after another (H.264, 30 fps), so a test can tell which of its moments a frame shows.
import { runTool } from "../src/system/run-tool.ts";

export async function writeColourClip(ffmpeg: string, path: string, colours: string[], secondsEach: number, size: string): Promise<void> {
  const inputs = colours.flatMap((colour) => ["-f", "lavfi", "-i", `color=c=${colour}:s=${size}:d=${secondsEach}:r=30`]);
  const concat = `${colours.map((_, i) => `[${i}:v]`).join("")}concat=n=${colours.length}:v=1:a=0`;
  await runTool(ffmpeg, ["-v", "error", "-y", ...inputs, "-filter_complex", concat, "-c:v", "libx264", "-pix_fmt", "yuv420p", path], new AbortController().signal).done;
}
