// A render node proven to work end to end: its health endpoint found from its start line, then a small project (a
// sub-composition and a tone) rendered through a studio's API as a dev user, and the output's streams probed. The
// image test (test/node/image-files.test.ts) runs it against a node started from the image's file set, and
// scripts/render-with-image.ts against one chrooted into a built image.
import type { ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runTool } from "../../render-node/src/system/run-tool.ts";
import { indexHtml, SUB_HTML } from "../../render-node/test/make-test-project.ts";
import { probeStreams, type StreamInfo } from "../../render-node/test/inspect-video.ts";
import type { RunningStudio } from "./local-studio.ts";

/** The port of the node's `GET /healthz`, read from its start line ("health: GET http://127.0.0.1:PORT/healthz");
 * rejects with the node's output when it exits first. */
export function healthPort(node: ChildProcess, output: () => string): Promise<number> {
  return new Promise<number>((done, fail) => {
    const timer = setInterval(() => {
      const match = /health: GET http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(output());
      if (match) done(Number(match[1]));
      if (match || node.exitCode !== null) clearInterval(timer);
      if (node.exitCode !== null) fail(new Error(`the node exited: ${output()}`));
    }, 100);
  });
}

export interface SampleRender {
  render: { status: string; downloadUrl: string; lines: string[] };
  /** The output's streams; empty when the render did not end `done`. */
  streams: StreamInfo[];
}

/**
 * Renders a 2 s project (a sub-composition from 1 s, a 3 s 440 Hz tone) as mp4 at quality draft on whichever node
 * the studio hands it to, waiting for the end. The tone is made and the output probed with this machine's ffmpeg
 * and ffprobe; the files go to `work`.
 */
export async function renderSampleProject(studio: RunningStudio, tools: { ffmpeg: string; ffprobe: string }, work: string): Promise<SampleRender> {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "image" }) });
  const { token } = (await login.json()) as { token: string };
  const call = async (method: string, path: string, body?: BodyInit, type = "application/json") => {
    const res = await fetch(`${studio.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": type }, body });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res;
  };
  await call("POST", "/api/projects", JSON.stringify({ name: "Image", html: indexHtml(2, 1) }));
  await call("PUT", "/api/projects/image/files/compositions/sub.html", SUB_HTML, "text/html");
  const tone = join(work, "tone.wav");
  await runTool(tools.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", tone], new AbortController().signal).done;
  await call("PUT", "/api/projects/image/files/assets/tone.wav", new Uint8Array(await readFile(tone)), "audio/wav");

  const res = await call("POST", "/api/projects/image/render?wait=1", JSON.stringify({ format: "mp4", quality: "draft" }));
  const render = (await res.json()) as SampleRender["render"];
  if (render.status !== "done") return { render, streams: [] };
  const file = join(work, "out.mp4");
  await writeFile(file, new Uint8Array(await (await call("GET", render.downloadUrl)).arrayBuffer()));
  return { render, streams: await probeStreams(tools.ffprobe, file) };
}
