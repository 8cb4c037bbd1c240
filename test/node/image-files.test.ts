// The container image's file set runs a node. There is no Docker engine here, so this reads render-node/Dockerfile,
// runs its deps stage's RUN lines in a temp folder (npm ci, narrowing to render-node/image-dependencies.ts, npm
// prune: the packages come from the npm cache the checkout's own `npm ci` filled), places exactly the files the
// final stage's COPY lines copy beside that node_modules, checks that every package the node can import is among
// them (or is a binary fallback the image leaves out) and that nothing else is, then starts the node from that
// folder as the image's CMD does, against a real studio, and renders. The files come from the build context as
// .dockerignore leaves it (walked as Docker walks it), so the render shows that the context holds what the build
// needs; and the context holds nothing the COPY lines do not take.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { builtinModules } from "node:module";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_FAMILIES } from "../../core/fonts/font-table.ts";
import { IMAGE_DEPENDENCIES, inImage as installedInImage, LEFT_OUT_FALLBACKS } from "../../render-node/image-dependencies.ts";
import { isExecutable, resolveBinaries, type Binaries } from "../../render-node/src/system/resolve-binaries.ts";
import { CANVAS } from "../../render-node/test/make-test-project.ts";
import { startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { healthPort, renderSampleProject } from "../../scripts/lib/render-sample-project.ts";
import { preparedDataDir } from "../studio-data.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";
import { importSpecifiers, inBuildContext, isUnder, packageOf, parseDockerfile, quotedPackages, type DockerStage } from "./dockerfile-files.ts";
import { settled } from "../../core/settled.ts";

const run = promisify(execFile);
let work = "";
/** The image's root file system, as far as the COPY lines fill it. */
let image = "";
let stages: DockerStage[] = [];
let studio: RunningStudio | undefined;
let studioStarting: Promise<void> | undefined;
let node: ChildProcess | undefined;
let nodeLog = "";
const final = () => stages.at(-1)!;
const inImage = (path: string) => join(image, path);

/** Runs a stage's RUN lines in `dir` as its shell would, on the project's Node (npm too: its `#!/usr/bin/env node`
 * finds it first on PATH), from the npm cache only where it can. `npm cache clean` is skipped: it is the image's
 * housekeeping, and here it would empty the developer's cache. */
async function runStage(stage: DockerStage, dir: string): Promise<void> {
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`, npm_config_prefer_offline: "true" };
  for (const line of stage.runs) {
    const steps = line.split("&&").map((step) => step.trim()).filter((step) => !/^npm cache clean\b/.test(step));
    await run("sh", ["-c", steps.join(" && ")], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 });
  }
}

/** Top-level package names in a node_modules folder ("@scope/name" for scoped ones). */
async function installedPackages(modules: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(modules)) {
    if (entry.startsWith(".")) continue;
    if (entry.startsWith("@")) names.push(...(await readdir(join(modules, entry))).map((name) => `${entry}/${name}`));
    else names.push(entry);
  }
  return names;
}

let binaries: Binaries;
/** The build context: every file under the repository's root that .dockerignore keeps, relative to it. */
let context: string[] = [];

/**
 * The files of the build context, walked from the root. A directory .dockerignore excludes is not entered unless an
 * exception (`!path`) could bring back something inside it, as Docker does (so node_modules and .git are skipped).
 */
async function buildContext(root: string, ignoreText: string): Promise<string[]> {
  const exceptions = ignoreText.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("!")).map((l) => l.slice(1).replace(/^\/+/, ""));
  const kept = (path: string) => inBuildContext(ignoreText, [path]).length === 1;
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (kept(path) || exceptions.some((e) => e.startsWith(`${path}/`))) await walk(path);
      } else if (kept(path)) files.push(path);
    }
  };
  await walk("");
  return files.sort();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "studio-image-"));
  image = join(work, "image");
  // The studio the last test's node renders for starts while the image's files are built: it needs none of them.
  studioStarting = preparedDataDir(join(work, "data")).then(async (dataDir) => {
    studio = await startStudio({ port: 24_000 + Math.floor(Math.random() * 2000), dataDir, prepared: true, renderNode: false });
  });
  // Awaited at the end (and by afterAll); a build failing first is this hook's failure, not an unhandled rejection.
  void settled(studioStarting);
  binaries = await resolveBinaries();
  stages = parseDockerfile(await readFile(join(ROOT, "render-node", "Dockerfile"), "utf8"));
  context = await buildContext(ROOT, await readFile(join(ROOT, ".dockerignore"), "utf8"));
  const inContext = new Set(context);
  const built = new Map<string, string>();
  for (const stage of stages) {
    const root = join(work, `stage-${stages.indexOf(stage)}`);
    const at = (path: string) => join(stage === final() ? image : root, path);
    for (const copy of stage.copies) {
      if (copy.from === null) {
        for (const source of copy.sources) {
          const into = copy.dest.endsWith("/") || copy.sources.length > 1 ? join(at(copy.dest), source.split("/").pop()!) : at(copy.dest);
          await mkdir(dirname(into), { recursive: true });
          // Only what the build context holds: a directory is entered when some context file is inside it.
          const keep = (src: string) => {
            const path = src.slice(ROOT.length + 1);
            return inContext.has(path) || context.some((file) => file.startsWith(`${path}/`));
          };
          await cp(join(ROOT, source), into, { recursive: true, filter: keep });
        }
        continue;
      }
      // From an earlier stage: what its RUN lines built there; its Node is the one running this test.
      for (const source of copy.sources) {
        if (source === "/usr/local/bin/node") continue;
        const from = built.get(copy.from);
        if (!from) throw new Error(`the image test does not know stage ${copy.from} (test/node/image-files.test.ts)`);
        await mkdir(dirname(at(copy.dest)), { recursive: true });
        // Moved rather than copied (node_modules: seconds of disk writes): the stage's folder is thrown away after
        // the build, and a second COPY of the same path would fail here, loudly.
        await rename(join(from, source), at(copy.dest));
      }
    }
    if (stage === final()) continue;
    // Only the deps stage builds something the final stage takes (Debian's packages cannot be installed here).
    await mkdir(join(root, stage.workdir), { recursive: true });
    await runStage(stage, join(root, stage.workdir));
    if (stage.name) built.set(stage.name, root);
  }
  await studioStarting;
}, 240_000);

afterAll(async () => {
  if (node && node.exitCode === null) node.kill("SIGKILL");
  if (studioStarting) await settled(studioStarting);
  await studio?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("render-node/Dockerfile", () => {
  it("has a build context (.dockerignore) of what its COPY lines take and nothing else", async () => {
    const sources = stages.flatMap((stage) => stage.copies.filter((c) => c.from === null).flatMap((c) => c.sources));
    for (const source of sources) expect(context.some((file) => isUnder(file, source)), `${source} in the build context`).toBe(true);
    expect(context.filter((file) => !sources.some((source) => isUnder(file, source)))).toEqual([]);
    // Never the checkout's packages, history, local data, tests or a built page runtime (stage 2 builds its own).
    expect(context.filter((file) => /(^|\/)(node_modules|\.git|\.data|\.wrangler|dist)\/|\.test\.ts$|^render-node\/(test|bench)\//.test(file))).toEqual([]);
    let bytes = 0;
    for (const file of context) bytes += (await stat(join(ROOT, file))).size;
    console.log(`build context: ${context.length} files, ${(bytes / 1024).toFixed(0)} KiB`);
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
  });

  it("builds on the project's Node with runtime packages only, runs as a non-root user, with a health check", () => {
    const deps = stages.find((s) => s.name === "deps");
    expect(deps?.base).toMatch(/^node:24[.-]/);
    expect(deps?.copies.flatMap((c) => c.sources)).toEqual(["package.json", "package-lock.json", "render-node/image-dependencies.ts"]);
    expect(deps?.runs.some((r) => /npm ci --omit=dev --omit=optional/.test(r))).toBe(true);
    expect(final().base).toMatch(/^debian:/);
    const text = final().runs.join("\n");
    for (const pkg of ["chromium-headless-shell", "ffmpeg", "fonts-noto-core", "util-linux"]) expect(text).toContain(pkg);
    expect(text).toMatch(/useradd .*studio/);
    expect(final().env).toMatchObject({ HEALTH_PORT: "8080", CHROME_PATH: "/usr/lib/chromium/chromium-headless-shell" });
    expect(final().cmd).toEqual(["node", "render-node/main.ts"]);
  });

  it("copies every file the node can import; every package it imports is in the image, but the binary fallbacks", async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
    const packages = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})];
    const entry = resolve(inImage(final().workdir), final().cmd![1]!);
    const seen = new Set<string>();
    const used = new Set<string>();
    const queue = [entry];
    const problems: string[] = [];
    while (queue.length) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = await readFile(file, "utf8");
      for (const specifier of importSpecifiers(source)) {
        if (specifier.startsWith(".")) {
          const target = resolve(dirname(file), specifier);
          if (await stat(target).then((s) => s.isFile(), () => false)) queue.push(target);
          else problems.push(`${file.slice(image.length)} imports ${specifier}, which the image does not have`);
        } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
          if (!packages.includes(packageOf(specifier))) problems.push(`${file.slice(image.length)} imports ${specifier}, not a dependency in package.json`);
          used.add(packageOf(specifier));
        }
      }
      // Resolved or required by name (GSAP's files, the npm-shipped ffmpeg) count as imports too.
      for (const name of quotedPackages(source, packages)) used.add(name);
    }
    // The bundled fonts are resolved by a name built at run time (src/bundled-fonts.ts): every one the table maps.
    for (const family of BUNDLED_FAMILIES) used.add(family.packageName);
    for (const name of used) {
      if (!installedInImage(name) && !LEFT_OUT_FALLBACKS.includes(name)) problems.push(`the node uses ${name}, which render-node/image-dependencies.ts leaves out of the image`);
    }
    expect(problems).toEqual([]);
    // The walk reached the render pipeline, the shared code in core/ and the fallbacks' names.
    expect([...seen].some((f) => f.endsWith("/app/render-node/src/render-pipeline.ts"))).toBe(true);
    expect([...seen].some((f) => f.includes("/app/core/"))).toBe(true);
    expect([...used]).toEqual(expect.arrayContaining(["gsap-3.14.2", "puppeteer-core", "@fontsource/inter", ...LEFT_OUT_FALLBACKS]));
    // And the list holds nothing the node does not use: each entry matches a used package.
    expect(IMAGE_DEPENDENCIES.filter((entry) => ![...used].some((name) => installedInImage(name, [entry])))).toEqual([]);
  });

  it("installs the node's packages from the lockfile and nothing else: no Worker packages, no npm-shipped binaries", async () => {
    const lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
    const modules = inImage(join(final().workdir, "node_modules"));
    const installed = await installedPackages(modules);
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; optionalDependencies: Record<string, string> };
    const direct = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies)];
    expect(direct.filter((name) => installed.includes(name)).sort()).toEqual(direct.filter((name) => installedInImage(name)).sort());
    for (const name of ["hono", "puppeteer-core", "zod", "@fontsource/inter"]) {
      const { version } = JSON.parse(await readFile(join(modules, name, "package.json"), "utf8")) as { version: string };
      expect(version, name).toBe(lock.packages[`node_modules/${name}`]!.version);
    }
    // Nothing of the binary fallbacks, theirs or their platform packages' (the image has Debian's binaries).
    expect(installed.filter((name) => /^@(sparticuz|ffmpeg-installer|ffprobe-installer)\//.test(name))).toEqual([]);
    expect(installed).not.toContain("drizzle-orm");
    expect(installed).not.toContain("@modelcontextprotocol/sdk");
  });

  it("without CHROME_PATH or FFMPEG_PATH where neither the system's binary nor the npm fallback is, the node says which to set", async () => {
    const start = (env: Record<string, string>) =>
      run(process.execPath, final().cmd!.slice(1), {
        cwd: inImage(final().workdir),
        // Only Node on PATH: no ffmpeg there.
        env: { PATH: dirname(process.execPath), HOME: work, TMPDIR: work, STUDIO_URL: "http://127.0.0.1:9", NODE_KEY: "stn_x", ...env },
      }).then(() => "", (error: { stderr?: string; code?: number }) => `exit ${error.code}: ${error.stderr ?? ""}`);
    // Debian's headless shell would be found without CHROME_PATH, as in the image.
    if (!isExecutable("/usr/lib/chromium/chromium-headless-shell")) expect(await start({})).toMatch(/^exit 1: [^]*Chromium headless shell not found: set CHROME_PATH/);
    expect(await start({ CHROME_PATH: binaries.chrome })).toMatch(/^exit 1: [^]*ffmpeg not found: set FFMPEG_PATH/);
  });

  it("starts from the copied files, answers GET /healthz, and renders a project", async () => {
    if (!studio) throw new Error("the studio did not start (beforeAll)");
    // As the image runs it: the CMD from WORKDIR, the image's environment (its binary paths pointing at this
    // machine's Chromium and ffmpeg, as the image's point at Debian's), the studio's address and a node key.
    const { NODE_EXTRA_CA_CERTS: _ca, ...imageEnv } = final().env;
    const env = { ...imageEnv, CHROME_PATH: binaries.chrome, FFMPEG_PATH: binaries.ffmpeg, FFPROBE_PATH: binaries.ffprobe };
    node = spawn(process.execPath, final().cmd!.slice(1), {
      cwd: inImage(final().workdir),
      env: { PATH: process.env.PATH ?? "", HOME: work, ...env, HEALTH_PORT: "0", HEALTH_HOST: "127.0.0.1", STUDIO_URL: studio.url, NODE_KEY: studio.nodeKey, NODE_ID: "image-test" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    node.stdout!.on("data", (d: Buffer) => (nodeLog += d.toString()));
    node.stderr!.on("data", (d: Buffer) => (nodeLog += d.toString()));
    const port = await healthPort(node, () => nodeLog);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", nodeId: "image-test" });
    expect((await fetch(`http://127.0.0.1:${port}/jobs`)).status).toBe(404);

    const { render, streams } = await renderSampleProject(studio, binaries, work);
    expect(render.status, `${render.lines?.join("\n")}\n--- node ---\n${nodeLog}`).toBe("done");
    expect(streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", width: CANVAS.width, nb_read_frames: "60" });
    expect(streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    // It was this node, run from the image's files, that rendered.
    expect(nodeLog).toContain(`render node image-test: ${studio.url}`);
    expect(nodeLog).toMatch(/\[[\w-]+\] done: 60 frames/);
  }, 180_000);
});
