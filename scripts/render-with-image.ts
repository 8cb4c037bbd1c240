// Renders with a built render-node image's own files: its Node, Chromium headless shell, ffmpeg, fonts and
// node_modules. scripts/build-image-local.sh mounts the image (with /proc, /dev, /dev/shm and a /tmp) and calls
//   node scripts/render-with-image.ts <mounted root> <the image's `buildah inspect --type image` JSON>
// This starts a studio on this machine (wrangler dev, no node of its own), starts the image's CMD chrooted into the
// root as the image's USER, in its WORKDIR, with exactly its ENV plus the studio's address and a node key (so no
// binary of this machine can be reached), runs the image's HEALTHCHECK command the same way, and renders a project
// with it. Exit code 0 when the health check passes and the render is done with the video and audio expected.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANVAS } from "../render-node/test/make-test-project.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { buildDashboard } from "./lib/dashboard.ts";
import { assertPortFree } from "./lib/check-port.ts";
import { startStudio, type RunningStudio } from "./lib/local-studio.ts";
import { healthPort, renderSampleProject } from "./lib/render-sample-project.ts";

/** The parts of `buildah inspect --type image` read here (Docker's format keeps the HEALTHCHECK). */
interface Inspected {
  OCIv1: { config: { User: string; WorkingDir: string; Env: string[]; Cmd: string[] } };
  Docker: { config: { Healthcheck?: { Test: string[] } } };
}

/** Runs `command` chrooted into the image as `user`, in `dir`, with only `env`. */
function inImage(root: string, user: { uid: string; gid: string }, dir: string, env: string[], command: string[]): ChildProcess {
  return spawn("chroot", [`--userspec=${user.uid}:${user.gid}`, root, "/usr/bin/env", "-i", "-C", dir, ...env, ...command], { stdio: ["ignore", "pipe", "pipe"] });
}

/** uid, gid and home of a user in the image's /etc/passwd. */
async function imageUser(root: string, name: string): Promise<{ uid: string; gid: string; home: string }> {
  const line = (await readFile(join(root, "etc", "passwd"), "utf8")).split("\n").find((l) => l.split(":")[0] === name);
  if (!line) throw new Error(`the image has no user ${name} in /etc/passwd`);
  const [, , uid, gid, , home] = line.split(":");
  return { uid: uid!, gid: gid!, home: home! };
}

async function main(root: string, inspectFile: string): Promise<boolean> {
  const inspected = JSON.parse(await readFile(inspectFile, "utf8")) as Inspected;
  const config = inspected.OCIv1.config;
  const check = inspected.Docker.config.Healthcheck?.Test;
  const user = await imageUser(root, config.User);
  const work = await mkdtemp(join(tmpdir(), "studio-image-render-"));
  let studio: RunningStudio | undefined;
  let node: ChildProcess | undefined;
  let log = "";
  try {
    // wrangler dev serves the dashboard's build as its assets and refuses to start without it.
    await buildDashboard();
    studio = await startStudio({ port: 27_000 + Math.floor(Math.random() * 2000), dataDir: join(work, "data"), renderNode: false });
    // The image's HEALTH_PORT (its HEALTHCHECK asks there), on this machine's loopback only: the chroot shares
    // its network.
    await assertPortFree(8080, "0.0.0.0");
    const env = [...config.Env, `HOME=${user.home}`, `STUDIO_URL=${studio.url}`, `NODE_KEY=${studio.nodeKey}`, "NODE_ID=image-local", "HEALTH_HOST=127.0.0.1"];
    node = inImage(root, user, config.WorkingDir, env, config.Cmd);
    node.stdout!.on("data", (d: Buffer) => (log += d.toString()));
    node.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    const port = await healthPort(node, () => log);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    console.log(`GET /healthz on ${port}: ${health.status} ${await health.text()}`);
    if (!check || check[0] !== "CMD") throw new Error(`the image has no HEALTHCHECK CMD (${JSON.stringify(check)})`);
    const checker = inImage(root, user, config.WorkingDir, config.Env, check.slice(1));
    const checked = await new Promise<number | null>((done) => checker.on("exit", done));
    console.log(`HEALTHCHECK ${check.slice(1).join(" ")}: exit ${checked}`);
    const started = performance.now();
    const { render, streams } = await renderSampleProject(studio, await resolveBinaries(), work);
    const video = streams.find((s) => s.codec_type === "video");
    const audio = streams.find((s) => s.codec_type === "audio");
    console.log(`render: ${render.status} in ${((performance.now() - started) / 1000).toFixed(1)} s; video ${video?.codec_name} ${video?.width}x${video?.height} ${video?.nb_read_frames} frames; audio ${audio?.codec_name}`);
    const rendered = /\[[\w-]+\] done: 60 frames/.test(log);
    const ok = health.ok && checked === 0 && render.status === "done" && video?.codec_name === "h264" && video.width === CANVAS.width && video.nb_read_frames === "60" && audio?.codec_name === "aac" && rendered;
    console.log(`--- the image's node ---\n${log}`);
    if (!ok) console.error(`render-with-image: FAILED\n${render.lines?.join("\n") ?? ""}`);
    return ok;
  } finally {
    if (node && node.exitCode === null) node.kill("SIGTERM");
    await studio?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

const [root, inspectFile] = process.argv.slice(2);
if (!root || !inspectFile) {
  console.error("usage: node scripts/render-with-image.ts <mounted image root> <buildah inspect --type image JSON>");
  process.exit(2);
}
process.exitCode = (await main(root, inspectFile)) ? 0 : 1;
