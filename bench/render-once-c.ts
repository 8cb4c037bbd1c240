// Renders one case of bench/lib/speed-cases.ts once with this tree's renderProject, in this process, and prints the
// wall time and the render's timeline. With bench/tree-cpu.ts it gives one render's CPU:
//
//   node bench/tree-cpu.ts node bench/render-once.ts reference /tmp/out.mp4
import { renderProject } from "../render-node/src/render-project.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { formatTimeline } from "../render-node/src/progress/render-timeline.ts";
import { SPEED_CASES } from "./lib/speed-cases.ts";

const [name, output = "/tmp/render-once.mp4"] = process.argv.slice(2);
const speedCase = SPEED_CASES.find((c) => c.name === name);
if (!speedCase) throw new Error(`usage: node bench/render-once.ts <${SPEED_CASES.map((c) => c.name).join("|")}> [out.mp4]`);
const binaries = await resolveBinaries();
const project = await speedCase.make(binaries.ffmpeg);
const started = performance.now();
const result = await renderProject({
  projectDir: project, outputPath: output, quality: speedCase.quality, format: "mp4", signal: new AbortController().signal, onLine: () => {}, concurrency: Number(process.env.BENCH_CONCURRENCY) || undefined,
});
console.log(`${((performance.now() - started) / 1000).toFixed(2)} s; ${formatTimeline(result.timeline)}`);
