// The container image's file set runs a node. There is no Docker engine here, so this reads render-node/Dockerfile,
// places exactly the files its COPY lines copy into a temp folder (the deps stage's node_modules and Node are this
// checkout's), checks that every module the node can import is among them or is a runtime dependency the deps stage
// installs, then starts the node from that folder as the image's CMD does, against a real studio, and renders.
import { spawn, type ChildProcess } from "node:child_process";
import { builtinModules } from "node:module";
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveFfmpeg } from "../../render-node/src/resolve-binaries.ts";
import { runTool } from "../../render-node/src/run-tool.ts";
import { CANVAS, indexHtml, SUB_HTML } from "../../render-node/test/make-test-project.ts";
import { probeStreams } from "../../render-node/test/inspect-video.ts";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";
import { importSpecifiers, packageOf, parseDockerfile, type DockerStage } from "./dockerfile-files.ts";

let work = "";
/** The image's root file system, as far as the COPY lines fill it. */
let image = "";
let stages: DockerStage[] = [];
let studio: RunningStudio | undefined;
let node: ChildProcess | undefined;
let nodeLog = "";
const final = () => stages.at(-1)!;
const inImage = (path: string) => join(image, path);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "studio-image-"));
  image = join(work, "image");
  stages = parseDockerfile(await readFile(join(ROOT, "render-node", "Dockerfile"), "utf8"));
  for (const copy of final().copies) {
    if (copy.from === null) {
      for (const source of copy.sources) {
        const into = copy.dest.endsWith("/") || copy.sources.length > 1 ? join(inImage(copy.dest), source.split("/").pop()!) : inImage(copy.dest);
        await mkdir(dirname(into), { recursive: true });
        await cp(join(ROOT, source), into, { recursive: true, filter: (src) => !src.includes(`${join(ROOT, source)}/node_modules`) });
      }
      continue;
    }
    // What the deps stage built: this checkout's node_modules (a superset: see the dependency check) and its Node.
    for (const source of copy.sources) {
      if (source === "/app/node_modules") {
        await mkdir(dirname(inImage(copy.dest)), { recursive: true });
        await symlink(join(ROOT, "node_modules"), inImage(copy.dest));
      } else if (source !== "/usr/local/bin/node") {
        throw new Error(`the image test does not know how to provide ${source} from stage ${copy.from}: teach it (test/node/image-files.test.ts)`);
      }
    }
  }
}, 60_000);

afterAll(async () => {
  if (node && node.exitCode === null) node.kill("SIGKILL");
  await studio?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("render-node/Dockerfile", () => {
  it("builds on the project's Node with runtime packages only, runs as a non-root user, with a health check", () => {
    const deps = stages.find((s) => s.name === "deps");
    expect(deps?.base).toMatch(/^node:24[.-]/);
    expect(deps?.copies.flatMap((c) => c.sources)).toEqual(["package.json", "package-lock.json"]);
    expect(deps?.runs.some((r) => /npm ci --omit=dev/.test(r))).toBe(true);
    expect(final().base).toMatch(/^debian:/);
    const text = final().runs.join("\n");
    for (const pkg of ["chromium-headless-shell", "ffmpeg", "fonts-noto-core", "util-linux"]) expect(text).toContain(pkg);
    expect(text).toMatch(/useradd .*studio/);
    expect(final().env).toMatchObject({ HEALTH_PORT: "8080", CHROME_PATH: "/usr/lib/chromium/chromium-headless-shell" });
    expect(final().cmd).toEqual(["node", "render-node/main.ts"]);
  });

  it("copies every file the node can import; every package it imports is a runtime dependency", async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const entry = resolve(inImage(final().workdir), final().cmd![1]!);
    const seen = new Set<string>();
    const queue = [entry];
    const problems: string[] = [];
    while (queue.length) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const specifier of importSpecifiers(await readFile(file, "utf8"))) {
        if (specifier.startsWith(".")) {
          const target = resolve(dirname(file), specifier);
          if (await stat(target).then((s) => s.isFile(), () => false)) queue.push(target);
          else problems.push(`${file.slice(image.length)} imports ${specifier}, which the image does not have`);
        } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier) && !(packageOf(specifier) in pkg.dependencies)) {
          problems.push(`${file.slice(image.length)} imports ${specifier}, not a runtime dependency (npm ci --omit=dev leaves it out)`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The walk reached the render pipeline and the shared code in core/.
    expect([...seen].some((f) => f.endsWith("/app/render-node/src/render-project.ts"))).toBe(true);
    expect([...seen].some((f) => f.includes("/app/core/"))).toBe(true);
  });

  it("starts from the copied files, answers GET /healthz, and renders a project", async () => {
    studio = await startStudio({ port: 24_000 + Math.floor(Math.random() * 2000), dataDir: join(work, "data"), renderNode: false });
    // As the image runs it: the CMD from WORKDIR, the image's environment (less the Debian binary paths this machine
    // lacks: the node falls back to the npm-shipped Chromium and ffmpeg), the studio's address and a node key.
    const { CHROME_PATH: _c, FFMPEG_PATH: _f, FFPROBE_PATH: _p, NODE_EXTRA_CA_CERTS: _ca, ...env } = final().env;
    node = spawn(process.execPath, final().cmd!.slice(1), {
      cwd: inImage(final().workdir),
      env: { PATH: process.env.PATH ?? "", HOME: work, ...env, HEALTH_PORT: "0", HEALTH_HOST: "127.0.0.1", STUDIO_URL: studio.url, NODE_KEY: studio.nodeKey, NODE_ID: "image-test" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    node.stdout!.on("data", (d: Buffer) => (nodeLog += d.toString()));
    node.stderr!.on("data", (d: Buffer) => (nodeLog += d.toString()));
    const port = await new Promise<number>((done, fail) => {
      const timer = setInterval(() => {
        const match = /health: GET http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(nodeLog);
        if (match) done(Number(match[1]));
        if (match || node!.exitCode !== null) clearInterval(timer);
        if (node!.exitCode !== null) fail(new Error(`the node exited: ${nodeLog}`));
      }, 100);
    });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", nodeId: "image-test" });
    expect((await fetch(`http://127.0.0.1:${port}/jobs`)).status).toBe(404);

    const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "image" }) });
    const { token } = (await login.json()) as { token: string };
    const call = (method: string, path: string, body?: BodyInit, type = "application/json") =>
      fetch(`${studio!.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": type }, body });
    expect((await call("POST", "/api/projects", JSON.stringify({ name: "Image", html: indexHtml(2, 1) }))).status).toBe(201);
    expect((await call("PUT", "/api/projects/image/files/compositions/sub.html", SUB_HTML, "text/html")).status).toBe(200);
    const { ffmpeg, ffprobe } = resolveFfmpeg();
    const tone = join(work, "tone.wav");
    await runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", tone], new AbortController().signal).done;
    expect((await call("PUT", "/api/projects/image/files/assets/tone.wav", new Uint8Array(await readFile(tone)), "audio/wav")).status).toBe(200);

    const res = await call("POST", "/api/projects/image/render?wait=1", JSON.stringify({ format: "mp4", quality: "draft" }));
    const render = (await res.json()) as { status: string; downloadUrl: string; lines: string[] };
    expect(render.status, `${render.lines?.join("\n")}\n--- node ---\n${nodeLog}`).toBe("done");
    const file = join(work, "out.mp4");
    await writeFile(file, new Uint8Array(await (await call("GET", render.downloadUrl)).arrayBuffer()));
    const streams = await probeStreams(ffprobe, file);
    expect(streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", width: CANVAS.width, nb_read_frames: "60" });
    expect(streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    // It was this node, run from the image's files, that rendered.
    expect(nodeLog).toContain(`render node image-test: ${studio.url}`);
    expect(nodeLog).toMatch(/\[[\w-]+\] done: 60 frames/);
  }, 180_000);
});
