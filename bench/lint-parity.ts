// Lint parity with HyperFrames: runs the studio's linter and `hyperframes lint --json` (0.8.170) over every project
// folder of a corpus and prints where they disagree. Not part of npm test (it needs HyperFrames from npm).
//
//   node_modules/.bin/node bench/lint-parity.ts [--corpus bench/lint-corpus] [--parity] [--templates] [--verbose]
//
// --parity adds bench/parity-corpus as its renders see it (each project copied with the assets bench/parity.ts writes
// into it: tones, fonts, vendored package files); --templates adds HyperFrames' own templates as `hyperframes init`
// writes them (its media placeholders filled with a video that has sound, clip.mp4, and a 10 s duration). The run
// ends with a Markdown table of every remaining disagreement and studio-only rule, with its reason (bench/README.md).
//
// HyperFrames is not a dependency of the project: the pinned version is installed on first use into
// bench/.cache/hyperframes (git-ignored) with npm on our Node 24; `lint` needs no browser.
//
// Findings are compared per corpus folder through each rule's `hyperframes` counterparts (core/lint/lint-rules.ts):
//   agree        we report rule R and HyperFrames reports one of R's counterparts, at the same severity
//   severity     both report it, at different severities
//   ours only    we report R (which has counterparts), HyperFrames reports none of them
//   theirs only  HyperFrames reports a counterpart code of one of our rules, and we report none of those rules
// A disagreement on a rule whose `difference` explains it is counted as documented; any other is a real
// disagreement (exit code 1). Rules without a counterpart on either side are listed, not compared.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { delimiter, dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { lintProject } from "../core/lint/lint-project.ts";
import { LINT_RULES, type LintRuleInfo } from "../core/lint/lint-rules.ts";
import type { LintInputFile, LintSeverity } from "../core/lint/types.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { writePackageFiles } from "./lib/hyperframes-reference.ts";
import { makeAssets } from "./lib/parity-media.ts";

const HYPERFRAMES_VERSION = "0.8.170";
const HERE = dirname(fileURLToPath(import.meta.url));
const CACHE = join(HERE, ".cache", "hyperframes");
const HYPERFRAMES_BIN = join(CACHE, "node_modules", "hyperframes", "bin", "hyperframes.mjs");
const TEMPLATES = join(CACHE, "node_modules", "hyperframes", "dist", "templates");
const PARITY_CORPUS = join(HERE, "parity-corpus");
/** This run's copies of the parity corpus and the filled templates (removed at the end). */
const WORK = join(HERE, ".cache", `lint-work-${process.pid}`);
const TEXT_EXTENSIONS = new Set([".html", ".css", ".js", ".mjs", ".json"]);

interface Finding {
  code: string;
  severity: LintSeverity;
  message: string;
}

/** PATH with our Node 24 first, so npm and the HyperFrames CLI (Node 22+) run on it. */
function pathWithOurNode(): string {
  return [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter);
}

function installedHyperframesVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(CACHE, "node_modules", "hyperframes", "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Runs a process to completion; resolves with its stdout and exit code (lint exits 1 when it finds errors). */
function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((done, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => done({ stdout, stderr, code }));
  });
}

const hyperframesEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: pathWithOurNode(),
  // No network here: no telemetry, no update check.
  HYPERFRAMES_NO_TELEMETRY: "1",
  DO_NOT_TRACK: "1",
  HYPERFRAMES_NO_UPDATE_CHECK: "1",
});

async function ensureHyperframes(): Promise<void> {
  if (installedHyperframesVersion() === HYPERFRAMES_VERSION) return;
  console.log(`installing hyperframes@${HYPERFRAMES_VERSION} into ${CACHE}`);
  await mkdir(CACHE, { recursive: true });
  // --ignore-scripts: lint needs no browser download or native build step.
  const result = await run("npm", ["install", "--prefix", CACHE, `hyperframes@${HYPERFRAMES_VERSION}`, "--no-audit", "--no-fund", "--no-save", "--ignore-scripts"], hyperframesEnv());
  if (installedHyperframesVersion() !== HYPERFRAMES_VERSION) throw new Error(`hyperframes@${HYPERFRAMES_VERSION} did not install into ${CACHE}\n${result.stderr.slice(-2000)}`);
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path, base)));
    else if (entry.isFile()) out.push(relative(base, path).split("\\").join("/"));
  }
  return out.sort();
}

/** The project as the Worker hands it to the linter: every path, with text for text files. */
async function oursFor(dir: string): Promise<Finding[]> {
  const files: LintInputFile[] = [];
  for (const path of await listFiles(dir)) {
    const bytes = await readFile(join(dir, path));
    const file: LintInputFile = { path, size: bytes.length };
    if (TEXT_EXTENSIONS.has(extname(path).toLowerCase())) file.text = bytes.toString("utf8");
    files.push(file);
  }
  return lintProject({ files }).findings.map(({ code, severity, message }) => ({ code, severity, message }));
}

async function theirsFor(dir: string): Promise<Finding[]> {
  const { stdout, stderr } = await run(process.execPath, [HYPERFRAMES_BIN, "lint", "--json", dir], hyperframesEnv());
  try {
    const result = JSON.parse(stdout) as { findings: Finding[] };
    return result.findings.filter((f) => f.severity !== "info").map(({ code, severity, message }) => ({ code, severity, message }));
  } catch {
    throw new Error(`hyperframes lint --json ${dir} printed no JSON:\n${stdout.slice(0, 500)}\n${stderr.slice(0, 500)}`);
  }
}

type Verdict = "agree" | "severity" | "ours only" | "theirs only";

interface Comparison {
  project: string;
  verdict: Verdict;
  rule: string;
  theirs: string;
  documented: boolean;
  detail: string;
}

/** Compares one project's findings through the counterpart table. */
export function compareFindings(project: string, ours: Finding[], theirs: Finding[], rules: LintRuleInfo[]): { comparisons: Comparison[]; oursUnmapped: string[]; theirsUnmapped: string[] } {
  const byCode = new Map(rules.map((rule) => [rule.code as string, rule]));
  const counterpartCodes = new Set(rules.flatMap((rule) => rule.hyperframes));
  const comparisons: Comparison[] = [];
  const oursUnmapped = new Set<string>();
  const explained = new Set<string>();
  for (const code of new Set(ours.map((f) => f.code))) {
    const rule = byCode.get(code);
    if (!rule || rule.hyperframes.length === 0) {
      oursUnmapped.add(code);
      continue;
    }
    const mine = ours.find((f) => f.code === code)!;
    const match = theirs.filter((f) => rule.hyperframes.includes(f.code));
    for (const f of match) explained.add(f.code);
    const documented = rule.difference !== undefined;
    if (match.length === 0) {
      comparisons.push({ project, verdict: "ours only", rule: code, theirs: rule.hyperframes.join("|"), documented, detail: mine.message });
    } else if (match.some((f) => f.severity === mine.severity)) {
      comparisons.push({ project, verdict: "agree", rule: code, theirs: match[0]!.code, documented, detail: "" });
    } else {
      comparisons.push({ project, verdict: "severity", rule: code, theirs: match[0]!.code, documented, detail: `ours ${mine.severity}, theirs ${match[0]!.severity}` });
    }
  }
  const theirsUnmapped = new Set<string>();
  for (const f of theirs) {
    if (explained.has(f.code)) continue;
    if (!counterpartCodes.has(f.code)) {
      theirsUnmapped.add(f.code);
      continue;
    }
    explained.add(f.code);
    const candidates = rules.filter((rule) => rule.hyperframes.includes(f.code));
    comparisons.push({
      project,
      verdict: "theirs only",
      rule: candidates.map((rule) => rule.code).join("|"),
      theirs: f.code,
      documented: candidates.some((rule) => rule.difference !== undefined),
      detail: `${f.severity}: ${f.message}`,
    });
  }
  return { comparisons, oursUnmapped: [...oursUnmapped], theirsUnmapped: [...theirsUnmapped] };
}

/** A parity-corpus project as bench/parity.ts hands it to both renderers: with its assets and package files. */
async function prepareParityProject(dir: string, assets: string): Promise<string> {
  const copy = join(WORK, "parity-corpus", relative(PARITY_CORPUS, dir));
  await cp(dir, copy, { recursive: true, filter: (src) => !src.endsWith("parity.json") });
  await cp(assets, join(copy, "assets"), { recursive: true });
  await writePackageFiles(copy);
  return copy;
}

/**
 * A template as `hyperframes init --video clip.mp4` writes it (its initMedia, read, not copied): the audio slot
 * dropped, the video slot pointed at clip.mp4 with data-has-audio="true" (a video with sound), 10 s for the duration.
 */
export function fillTemplatePlaceholders(html: string): string {
  const openTag = (tag: string, placeholder: string) => new RegExp(`<${tag}\\b[^>]*src="${placeholder}"[^>]*>`, "g");
  let out = html.replace(new RegExp(`${openTag("audio", "__AUDIO_SRC__").source}[\\s\\S]*?</audio>`, "g"), "").replace(openTag("audio", "__AUDIO_SRC__"), "");
  out = out.replace(openTag("video", "__VIDEO_SRC__"), (tag) =>
    tag.replace(/\s+(muted|data-has-audio)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?/g, "").replace(/\s*>$/, ' data-has-audio="true">'));
  return out.replaceAll("__VIDEO_SRC__", "clip.mp4").replaceAll("__VIDEO_DURATION__", "10");
}

async function prepareTemplate(dir: string): Promise<string> {
  const copy = join(WORK, "templates", relative(TEMPLATES, dir));
  await cp(dir, copy, { recursive: true });
  for (const path of await listFiles(copy)) {
    if (!path.endsWith(".html")) continue;
    await writeFile(join(copy, path), fillTemplatePlaceholders(await readFile(join(copy, path), "utf8")));
  }
  // Lint reads only that the file exists.
  if ((await readFile(join(copy, "index.html"), "utf8").catch(() => "")).includes("clip.mp4")) await writeFile(join(copy, "clip.mp4"), "");
  return copy;
}

/** One Markdown row per disagreement and per studio-only rule that fired, with the rule table's reason. */
function disagreementTable(all: Comparison[], oursOnly: Map<string, string[]>, theirsOnly: Map<string, string[]>): string {
  const byCode = new Map(LINT_RULES.map((rule) => [rule.code as string, rule]));
  const rows = new Map<string, { projects: string[]; reason: string }>();
  const add = (key: string, project: string, reason: string) => {
    const row = rows.get(key) ?? { projects: [], reason };
    row.projects.push(project);
    rows.set(key, row);
  };
  for (const c of all.filter((c) => c.verdict !== "agree")) {
    add(`| ${c.rule} (${byCode.get(c.rule)?.severity ?? "?"}) | ${c.theirs} | ${c.verdict} |`, c.project, byCode.get(c.rule)?.difference ?? "**undocumented**");
  }
  for (const [code, projects] of oursOnly) {
    for (const project of projects) add(`| ${code} (${byCode.get(code)?.severity ?? "?"}) | none | ours only |`, project, byCode.get(code)?.difference ?? "**undocumented**");
  }
  for (const [code, projects] of theirsOnly) {
    for (const project of projects) add(`| none | ${code} | theirs only |`, project, "HyperFrames rule with no studio counterpart");
  }
  const lines = ["| ours (severity) | HyperFrames | verdict | where | reason |", "| --- | --- | --- | --- | --- |"];
  for (const [key, { projects, reason }] of [...rows].sort()) {
    const where = `${projects.length}: ${projects.slice(0, 3).join(", ")}${projects.length > 3 ? ", ..." : ""}`;
    lines.push(`${key.slice(0, -1)}| ${where} | ${reason.replace(/\|/g, "/")} |`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: "string", default: join(HERE, "lint-corpus") }, verbose: { type: "boolean", default: false },
      templates: { type: "boolean", default: false }, parity: { type: "boolean", default: false },
    },
  });
  await ensureHyperframes();
  const folders = async (corpus: string) =>
    (await readdir(corpus, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith("_")).map((e) => join(corpus, e.name));
  const projects: string[] = [...(await folders(resolve(values.corpus)))];
  await rm(WORK, { recursive: true, force: true });
  if (values.parity) {
    const assets = join(WORK, "_assets");
    await makeAssets(assets, (await resolveBinaries()).ffmpeg);
    for (const dir of await folders(PARITY_CORPUS)) projects.push(await prepareParityProject(dir, assets));
  }
  if (values.templates) for (const dir of await folders(TEMPLATES)) projects.push(await prepareTemplate(dir));
  projects.sort();
  const all: Comparison[] = [];
  // Compositions HyperFrames calls good (no error of its own): where the studio must agree but for its own rules.
  const good = new Set<string>();
  const oursOnlyRules = new Map<string, string[]>();
  const theirsOnlyRules = new Map<string, string[]>();
  for (const dir of projects) {
    const project = dir.startsWith(WORK) ? relative(WORK, dir).replace(/^templates\//, "hyperframes:") : relative(HERE, dir).replace(/^lint-corpus\//, "");
    const [ours, theirs] = await Promise.all([oursFor(dir), theirsFor(dir)]);
    const { comparisons, oursUnmapped, theirsUnmapped } = compareFindings(project, ours, theirs, LINT_RULES);
    if (!theirs.some((f) => f.severity === "error")) good.add(project);
    all.push(...comparisons);
    for (const code of oursUnmapped) oursOnlyRules.set(code, [...(oursOnlyRules.get(code) ?? []), project]);
    for (const code of theirsUnmapped) theirsOnlyRules.set(code, [...(theirsOnlyRules.get(code) ?? []), project]);
    const shown = comparisons.filter((c) => values.verbose || c.verdict !== "agree");
    for (const c of shown) {
      const mark = c.verdict === "agree" ? "  ok " : c.documented ? "  doc" : "  !! ";
      console.log(`${mark} ${project.padEnd(30)} ${c.verdict.padEnd(11)} ours ${c.rule} / theirs ${c.theirs}${c.detail ? `  (${c.detail.slice(0, 140)})` : ""}`);
    }
  }
  const count = (verdict: Verdict, documented?: boolean) => all.filter((c) => c.verdict === verdict && (documented === undefined || c.documented === documented)).length;
  const disagreements = all.filter((c) => c.verdict !== "agree");
  const undocumented = disagreements.filter((c) => !c.documented);
  console.log(`\n${projects.length} projects, ${all.length} comparisons of rules with a HyperFrames counterpart:`);
  console.log(`  agree (same finding, same severity)  ${count("agree")}`);
  for (const verdict of ["severity", "ours only", "theirs only"] as const) {
    console.log(`  ${verdict.padEnd(36)} ${count(verdict)} (${count(verdict, true)} documented in lint-rules.ts, ${count(verdict, false)} not)`);
  }
  console.log(`  undocumented disagreements          ${undocumented.length}`);
  const list = (m: Map<string, string[]>) => [...m].sort().map(([code, where]) => `    ${code} (${where.length}: ${where.slice(0, 4).join(", ")}${where.length > 4 ? ", ..." : ""})`).join("\n") || "    none";
  console.log(`\nstudio rules with no HyperFrames counterpart, where they fired:\n${list(oursOnlyRules)}`);
  console.log(`HyperFrames rules with no studio counterpart, where they fired:\n${list(theirsOnlyRules)}`);
  const onGood = (m: Map<string, string[]>) => new Map([...m].map(([code, where]) => [code, where.filter((p) => good.has(p))] as const).filter(([, where]) => where.length > 0));
  console.log(`\nDisagreements on the ${good.size} projects HyperFrames calls good (no error of its own):\n`);
  console.log(disagreementTable(all.filter((c) => good.has(c.project)), onGood(oursOnlyRules), onGood(theirsOnlyRules)));
  const oursErrors = all.filter((c) => good.has(c.project) && c.verdict !== "agree" && LINT_RULES.find((r) => r.code === c.rule)?.severity === "error");
  console.log(`\nerrors of ours on those projects: ${oursErrors.length}${oursErrors.map((c) => `\n  ${c.project}: ${c.rule}`).join("")}`);
  await rm(WORK, { recursive: true, force: true });
  process.exitCode = undocumented.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
