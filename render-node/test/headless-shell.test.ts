// The macOS / Linux arm64 path, forced on this machine (CHROME_SOURCE=puppeteer): @puppeteer/browsers downloads the
// Chrome headless shell archive from a loopback mirror (the same URL layout as Chrome for Testing), unpacks it into
// the cache, the node renders with it, and the next start finds it there without downloading again. The archive is
// built from this machine's own headless shell, so what gets unpacked is a real browser that must really render.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseNodeConfig } from "../src/config/node-config.ts";
import { HEADLESS_SHELL_BUILD } from "../src/system/install-headless-shell.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveChrome, resolveFfmpeg, sparticuzRunsHere, type BinaryChoice } from "../src/system/resolve-binaries.ts";
import { probeStreams, readPixel } from "./inspect-video.ts";
import { CANVAS, makeTestProject } from "./make-test-project.ts";

const run = promisify(execFile);
/** The binaries a node started with these variables would look for. */
const nodeEnv = (env: Record<string, string>): BinaryChoice => parseNodeConfig({ STUDIO_URL: "http://studio.test", NODE_KEY: "stn_test", ...env }).binaries;
const ARCHIVE_PATH = `/${HEADLESS_SHELL_BUILD}/linux64/chrome-headless-shell-linux64.zip`;

let work: string;
let archive: string;
let server: Server;
let baseUrl: string;
const requests: string[] = [];

/** A chrome-headless-shell-linux64.zip laid out as Chrome for Testing's, holding this machine's headless shell. */
async function buildArchive(dir: string): Promise<string> {
  const local = await resolveChrome();
  const folder = join(dir, "chrome-headless-shell-linux64");
  await mkdir(folder);
  // Debian's build keeps its .pak and .bin files beside the binary; @sparticuz/chromium's is one file.
  const siblings = basename(local) === "chromium-headless-shell" ? await readdir(dirname(local), { withFileTypes: true }) : [];
  for (const entry of siblings) {
    if (entry.isFile() && entry.name !== basename(local) && !entry.name.startsWith("libVkLayer")) {
      await copyFile(join(dirname(local), entry.name), join(folder, entry.name));
    }
  }
  await copyFile(local, join(folder, "chrome-headless-shell"));
  const zip = join(dir, "chrome-headless-shell-linux64.zip");
  // Stored, not deflated: a quarter of a gigabyte of browser, zipped and unzipped within the test's time.
  await run("zip", ["-0", "-q", "-r", zip, "chrome-headless-shell-linux64"], { cwd: dir });
  await rm(folder, { recursive: true });
  return zip;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "studio-headless-shell-"));
  archive = await buildArchive(work);
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url !== ARCHIVE_PATH) return void res.writeHead(404).end();
    stat(archive).then((info) => {
      res.writeHead(200, { "Content-Type": "application/zip", "Content-Length": String(info.size) });
      createReadStream(archive).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await rm(work, { recursive: true, force: true });
});

describe("Chrome headless shell through @puppeteer/browsers", () => {
  it("uses @sparticuz/chromium only on Linux x64", () => {
    expect(sparticuzRunsHere("linux", "x64")).toBe(true);
    expect(sparticuzRunsHere("darwin", "arm64")).toBe(false);
    expect(sparticuzRunsHere("darwin", "x64")).toBe(false);
    expect(sparticuzRunsHere("linux", "arm64")).toBe(false);
  });

  it("installs from the mirror into the cache, renders with it, and finds it there next time without a download", async () => {
    const cacheDir = join(work, "cache");
    const env = nodeEnv({ CHROME_SOURCE: "puppeteer", PUPPETEER_CACHE_DIR: cacheDir, PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL: baseUrl });
    const chrome = await resolveChrome(env);
    expect(chrome).toBe(join(cacheDir, "chrome-headless-shell", `linux-${HEADLESS_SHELL_BUILD}`, "chrome-headless-shell-linux64", "chrome-headless-shell"));
    expect(requests).toEqual([ARCHIVE_PATH]);

    // The unpacked browser renders: exact frames, and the red box where GSAP puts it at 1 s.
    const { ffmpeg, ffprobe } = resolveFfmpeg();
    const project = await makeTestProject(ffmpeg);
    const output = join(work, "out.mp4");
    await renderProject({
      projectDir: project, outputPath: output, format: "mp4", quality: "draft", binaries: { chrome, ffmpeg, ffprobe }, signal: new AbortController().signal,
    });
    const video = (await probeStreams(ffprobe, output)).find((s) => s.codec_type === "video");
    expect(video).toMatchObject({ width: CANVAS.width, height: CANVAS.height, nb_read_frames: "60" });
    const [r, g] = await readPixel(ffmpeg, output, CANVAS.width, 30, 120, 40);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(80);
    await rm(project, { recursive: true, force: true });

    // Next start: found in the cache, even with the mirror gone.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await resolveChrome(env)).toBe(chrome);
    expect(requests).toEqual([ARCHIVE_PATH]);
  }, 240_000);

  it("says what went wrong when the mirror does not have the build", async () => {
    const env = nodeEnv({ CHROME_SOURCE: "puppeteer", PUPPETEER_CACHE_DIR: join(work, "empty-cache"), PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL: "http://127.0.0.1:9/nothing" });
    await expect(resolveChrome(env)).rejects.toThrow(
      `could not install Chrome headless shell ${HEADLESS_SHELL_BUILD} from http://127.0.0.1:9/nothing/${HEADLESS_SHELL_BUILD}/linux64/chrome-headless-shell-linux64.zip: `,
    );
  }, 60_000);

  it("refuses an unknown CHROME_SOURCE at start", () => {
    expect(() => nodeEnv({ CHROME_SOURCE: "firefox" })).toThrow('CHROME_SOURCE must be "puppeteer" or unset; received "firefox"');
  });
});
