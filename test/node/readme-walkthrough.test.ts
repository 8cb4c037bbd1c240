// The README's walk-through, run verbatim (only the port differs) with bash and curl against a real studio and
// render node: sign in, create the starter project, write a file, lint, render a draft and download it. The
// downloaded file must be the real render: an H.264 video of the 4 s starter.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveFfmpeg } from "../../render-node/src/system/resolve-binaries.ts";
import { probeStreams } from "../../render-node/test/inspect-video.ts";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

const run = promisify(execFile);
let studio: RunningStudio;
let work: string;

/** The first ```sh block after "## Walk-through" in README.md. */
async function walkThrough(): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Walk-through"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("README.md has no sh block under ## Walk-through");
  return block;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "studio-readme-"));
  studio = await startStudio({ port: 20_000 + Math.floor(Math.random() * 2000), dataDir: join(work, "data") });
}, 120_000);

afterAll(async () => {
  await studio?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("README walk-through", () => {
  it("runs verbatim with curl and downloads the rendered starter", async () => {
    const script = (await walkThrough()).replaceAll("http://127.0.0.1:8787", studio.url);
    expect(script).toContain('curl -s -o hello-world.mp4 "');
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", script], {
      cwd: work, env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}` }, timeout: 240_000,
    });
    expect(stdout).toContain('"slug":"hello-world"');
    const file = join(work, "hello-world.mp4");
    expect((await stat(file)).size).toBeGreaterThan(1000);
    const video = (await probeStreams(resolveFfmpeg().ffprobe, file)).find((s) => s.codec_type === "video");
    expect(video).toMatchObject({ codec_name: "h264", width: 1920, height: 1080, nb_read_frames: "120" });
    // The last command lists the render that was downloaded.
    expect(stdout).toMatch(/"filename":"hello-world_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.mp4"/);
  }, 300_000);
});
