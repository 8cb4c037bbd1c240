// Benchmark (not a test): the Worker's bundle size and startup CPU, with the modules that cost the most.
//   node bench/startup.ts [--runs 5] [--env production] [--top 15] [--blame zod]
// It bundles the Worker as `wrangler deploy --dry-run` does (minified, with a source map), profiles its startup with
// `wrangler check startup` `--runs` times, and maps every CPU sample back through the source map to the file it ran
// in: "self" is time spent in that file's own code, summed per npm package (node_modules/<name>) or per folder of ours.
// `--blame <package>` also sums that package's time by the file of ours that called into it (the nearest caller
// of ours on the stack), to find whose module-level work makes a package expensive.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { bundleWorker, wrangler } from "../scripts/lib/worker-bundle.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const RUNS = Number(arg("runs", "5"));
const ENV = arg("env", "");
const TOP = Number(arg("top", "15"));
const BLAME = arg("blame", "");

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { url: string; lineNumber: number; columnNumber: number; functionName: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of a source path a reader recognises: the npm package, or our own folder. */
function ownerOf(source: string | null): string {
  if (!source) return "(no source)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return pkg[1]!;
  const ours = /(?:^|\/)(worker|core|render-node|dashboard)\/(.*)$/.exec(source);
  if (ours) return `${ours[1]}/${ours[2]!.split("/").slice(0, -1).join("/") || "."}`;
  return source.replace(/^(\.\.\/)+/, "");
}

const dir = await mkdtemp(join(tmpdir(), "studio-startup-"));
try {
  const bundle = await bundleWorker(dir, ENV);
  const map = new TraceMap(await readFile(join(dir, "index.js.map"), "utf8"));
  console.log(`bundle: ${(bundle.bytes / 1024).toFixed(0)} KiB, gzip ${(bundle.gzipBytes / 1024).toFixed(0)} KiB${ENV ? ` (env ${ENV})` : ""}`);

  const active: number[] = [];
  const selfByOwner = new Map<string, number>();
  const blamed = new Map<string, number>();
  for (let run = 0; run < RUNS; run++) {
    const outfile = join(dir, `startup-${run}.cpuprofile`);
    await wrangler(["check", "startup", "--outfile", outfile, ...(ENV ? ["--env", ENV] : [])]);
    const profile = JSON.parse(await readFile(outfile, "utf8")) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parentOf = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
    const sourceOf = (frame: ProfileNode["callFrame"]) =>
      frame.lineNumber < 0 ? null : originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }).source;
    let busy = 0;
    profile.samples.forEach((id, i) => {
      const frame = byId.get(id)?.callFrame;
      const us = profile.timeDeltas[i + 1] ?? 0;
      if (!frame || frame.functionName === "(idle)" || frame.functionName === "(program)" || frame.functionName === "(root)") return;
      busy += us;
      const owner =
        frame.functionName === "(garbage collector)"
          ? "(garbage collector)"
          : frame.lineNumber < 0
            ? "(bundle top level)"
            : ownerOf(originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }).source);
      selfByOwner.set(owner, (selfByOwner.get(owner) ?? 0) + us / RUNS);
      if (BLAME && owner === BLAME) {
        let caller = "(no caller of ours)";
        for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
          const source = sourceOf(byId.get(at)!.callFrame);
          if (source && !source.includes("node_modules") && /(?:^|\/)(worker|core)\//.test(source)) {
            caller = source.replace(/^(\.\.\/)+/, "");
            break;
          }
        }
        blamed.set(caller, (blamed.get(caller) ?? 0) + us / RUNS);
      }
    });
    active.push(busy / 1000);
  }
  const sorted = [...active].sort((a, b) => a - b);
  console.log(`startup CPU over ${RUNS} runs: min ${sorted[0]!.toFixed(1)} ms, median ${sorted[Math.floor(RUNS / 2)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms\n`);
  console.log("self time per run (mean), heaviest first:");
  for (const [owner, us] of [...selfByOwner].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${(us / 1000).toFixed(1).padStart(7)} ms  ${owner}`);
  }
  if (BLAME) {
    console.log(`\n${BLAME}'s time per run (mean), by the file of ours that called it:`);
    for (const [file, us] of [...blamed].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${(us / 1000).toFixed(1).padStart(7)} ms  ${file}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
