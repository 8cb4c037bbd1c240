// Cancelling a render kills every browser and ffmpeg it started: no child process survives.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { RenderOptionError } from "../src/plan/resolve-render.ts";
import { makeTestProject } from "./make-test-project.ts";
import { isAlive, listDescendants } from "./inspect-video.ts";

it("cancel mid-render leaves no child processes", async () => {
  const binaries = await resolveBinaries();
  const project = await makeTestProject(binaries.ffmpeg, { duration: 30 });
  const out = join(await mkdtemp(join(tmpdir(), "studio-cancel-")), "out.mp4");
  const before = new Set(listDescendants(process.pid));
  const controller = new AbortController();
  let during: number[] = [];
  const lines: string[] = [];
  const render = renderProject({
    projectDir: project, outputPath: out, format: "mp4", signal: controller.signal, onLine: (l) => lines.push(l),
    onProgress: (progress) => {
      if (progress.frame >= 20 && !controller.signal.aborted) {
        during = listDescendants(process.pid).filter((pid) => !before.has(pid));
        controller.abort();
      }
    },
  });
  await expect(render).rejects.toThrow(/cancelled/);
  // Chromium (several processes per browser) and one ffmpeg per browser were running.
  expect(during.length).toBeGreaterThanOrEqual(3);
  const deadline = Date.now() + 3000;
  while (during.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(during.filter(isAlive)).toEqual([]);
  expect(listDescendants(process.pid).filter((pid) => !before.has(pid))).toEqual([]);
  expect(lines).toContain("render cancelled");
});

it("rejects bad options before starting anything", async () => {
  const before = listDescendants(process.pid).length;
  await expect(
    renderProject({ projectDir: "/nonexistent", outputPath: "/tmp/x.mp4", format: "avi" as "mp4", signal: new AbortController().signal }),
  ).rejects.toThrow(RenderOptionError);
  await expect(
    renderProject({ projectDir: "/nonexistent", outputPath: "/tmp/x.mp4", quality: "best" as "high", signal: new AbortController().signal }),
  ).rejects.toThrow(/invalid quality: "best"; allowed values: draft, standard, high/);
  expect(listDescendants(process.pid).length).toBe(before);
});
