// Findings travel as data from the page to the plan (validated by the node protocol's schema), to check's runtime
// section, and to the log, where each becomes one `finding: <message>` line. The project's script error is worded
// like a missing-asset line: read back from text it would be misfiled; as data it keeps its code and file.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RenderPlanSchema } from "../../core/protocol/render-plan.ts";
import { checkComposition } from "../src/browser-jobs/check-composition.ts";
import { planRender } from "../src/plan-render.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { DECOY_ERROR, FINDING_PROJECT } from "./finding-project.ts";

let binaries: Binaries;
let project = "";
const signal = new AbortController().signal;

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-findings-"));
  for (const [path, text] of Object.entries(FINDING_PROJECT)) {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), text);
  }
});

const SCRIPT_ERROR = {
  code: "page-error",
  severity: "error",
  file: "compositions/intro.html",
  selector: '[data-composition-id="intro"]',
  message: `script error in compositions/intro.html: Error: ${DECOY_ERROR}`,
};
const MISSING_IMAGE = {
  code: "missing-asset",
  severity: "error",
  file: "index.html",
  asset: "assets/not-uploaded.png",
  message: "missing asset: assets/not-uploaded.png (referenced by index.html) is not in the project",
};

describe("structured findings", () => {
  it("a plan carries the page's findings as data the node protocol accepts", async () => {
    const plan = await planRender({ projectDir: project, options: {}, binaries, signal });
    expect(RenderPlanSchema.parse(plan)).toEqual(plan);
    expect(plan.findings).toContainEqual(expect.objectContaining(SCRIPT_ERROR));
    expect(plan.findings).toContainEqual(expect.objectContaining(MISSING_IMAGE));
    // The decoy text did not turn into a missing asset named decoy.png.
    expect(plan.findings.filter((f) => f.code === "missing-asset").map((f) => f.asset)).toEqual(["assets/not-uploaded.png"]);
  });

  it("a render reports a timeline callback that broke mid-render with its file and time, and logs each finding as one line", async () => {
    const lines: string[] = [];
    const result = await renderProject({
      projectDir: project, outputPath: join(project, "out.mp4"), format: "mp4", quality: "draft", concurrency: 1, binaries, signal, onLine: (l) => lines.push(l),
    });
    const seek = result.findings.find((f) => f.message.includes("callback broke"));
    expect(seek).toMatchObject({ code: "page-error", severity: "error", file: "compositions/intro.html" });
    expect(seek!.time).toBeGreaterThanOrEqual(0.5);
    expect(seek!.time).toBeLessThan(1);
    for (const finding of result.findings) expect(lines).toContain(`finding: ${finding.message}`);
    expect(lines.filter((l) => l.startsWith("finding: "))).toHaveLength(result.findings.length);
  });

  it("check reports them in its runtime section with file, selector and time", async () => {
    const report = await checkComposition({ projectDir: project, chrome: binaries.chrome, options: { at: [0.75] }, signal, onLine: () => {} });
    expect(report.runtime).toContainEqual({ ...SCRIPT_ERROR });
    // The callback that broke while check sought 0.75 s: its file is the file (read back from the line
    // "script error in <file> while seeking timeline …: …" it used to be filed under everything before the first ": ").
    expect(report.runtime).toContainEqual({
      code: "page-error", severity: "error", file: "compositions/intro.html", time: 0.75,
      message: 'script error in compositions/intro.html while seeking timeline "intro": Error: callback broke',
    });
    const { asset: _asset, ...missing } = MISSING_IMAGE;
    expect(report.runtime).toContainEqual({ ...missing, fixHint: "upload assets/not-uploaded.png, or fix the path in index.html (paths are relative to the file that references them)" });
  });
});

describe("no finding is read back from text", () => {
  it("the log line is written in one place, and no source holds a pattern or prefix that reads it back", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const root = join(import.meta.dirname, "..", "..");
    const sources: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        // Served docs are prose about the log, not code.
        if (entry.isDirectory() && !["node_modules", "dist", "test", "bench", "docs"].includes(entry.name)) await walk(path);
        else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) sources.push(path);
      }
    };
    for (const dir of ["render-node/src", "core", "page-runtime", "worker", "cli"]) await walk(dir);
    const literal = /["'`]finding: /;
    const found: string[] = [];
    for (const path of sources) {
      const text = await readFile(join(root, path), "utf8");
      for (const [i, line] of text.split("\n").entries()) {
        if (line.trimStart().startsWith("//") || line.trimStart().startsWith("*") || line.trimStart().startsWith("/**")) continue;
        if (literal.test(line) || line.includes("/^finding") || /startsWith\(["'`]finding/.test(line)) found.push(`${path}:${i + 1}`);
      }
    }
    // Only the one writer (its line moves as the file changes; the file must not).
    expect(found.map((at) => at.split(":")[0])).toEqual(["core/protocol/finding.ts"]);
  });
});
