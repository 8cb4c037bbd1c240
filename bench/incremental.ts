// Incremental re-render (issue 35 point 2): after an edit confined to the end of a composition in which something
// moves in every frame, a render handed the previous render (its output and manifest) against a full render of the
// same edited files, alternating, in this process (renderProject, the node's pipeline; no Worker). Prints each
// run's wall time, the medians, the ratio, and checks the two outputs decode to the same frames.
//
//   node bench/incremental.ts [--runs 3] [--case 720p-20s|1080p-30s|all]
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { CASES, composition, type Case } from "./lib/incremental-composition.ts";
import { renderProject, type RenderResult } from "../render-node/src/render-project.ts";
import type { PreviousRender } from "../render-node/src/carry/prepare-carry.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { runTool } from "../render-node/src/system/run-tool.ts";
import { percentile } from "./lib/measure.ts";
import { formatTimeline } from "../render-node/src/progress/render-timeline.ts";

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);


async function project(c: Case, title: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "studio-incremental-bench-"));
  await writeFile(join(dir, "index.html"), composition(c, title));
  return dir;
}

async function render(dir: string, output: string, previous: PreviousRender | null): Promise<{ result: RenderResult; seconds: number }> {
  const began = performance.now();
  const result = await renderProject({
    projectDir: dir, outputPath: output, format: "mp4", quality: "draft", previous, signal: new AbortController().signal, onLine: () => {},
  });
  return { result, seconds: (performance.now() - began) / 1000 };
}

async function frameMd5(ffmpeg: string, file: string): Promise<string[]> {
  const text = await runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done;
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
}

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, case: { type: "string", default: "all" } } });
const runs = Number(values.runs);
const binaries = await resolveBinaries();
const out = await mkdtemp(join(tmpdir(), "studio-incremental-out-"));
for (const c of CASES.filter((one) => values.case === "all" || one.name === values.case)) {
  const before = await project(c, "First cut");
  const after = await project(c, "Final cut");
  console.log(`${c.name}: ${c.width}x${c.height}, ${c.duration} s at 30 fps, draft; the title shown from ${c.titleFrom} s is edited`);
  const first = await render(before, join(out, `${c.name}-before.mp4`), null);
  const previous: PreviousRender = { outputPath: join(out, `${c.name}-before.mp4`), manifest: first.result.carry!.manifest };
  const full: number[] = [];
  const incremental: number[] = [];
  let carried = 0;
  let lastTimeline: RenderResult["timeline"] = [];
  for (let run = 0; run < runs; run++) {
    const a = await render(after, join(out, `${c.name}-full.mp4`), null);
    full.push(a.seconds);
    const b = await render(after, join(out, `${c.name}-incremental.mp4`), previous);
    incremental.push(b.seconds);
    carried = b.result.carry!.carriedSegments;
    lastTimeline = b.result.timeline;
    console.log(`  run ${run + 1}: full ${a.seconds.toFixed(2)} s, incremental ${b.seconds.toFixed(2)} s (${carried} segments carried), load ${loadavg()[0]!.toFixed(1)}`);
  }
  console.log(`  the last incremental render's timeline: ${formatTimeline(lastTimeline)}`);
  const [x, y] = await Promise.all([frameMd5(binaries.ffmpeg, join(out, `${c.name}-full.mp4`)), frameMd5(binaries.ffmpeg, join(out, `${c.name}-incremental.mp4`))]);
  const differing = x.filter((m, i) => m !== y[i]).length + Math.abs(x.length - y.length);
  const ratio = median(incremental) / median(full);
  console.log(`  medians: full ${median(full).toFixed(2)} s, incremental ${median(incremental).toFixed(2)} s, ratio ${ratio.toFixed(3)} (goal ${c.goal}); frames ${y.length}, ${differing} differing from the full render`);
}
