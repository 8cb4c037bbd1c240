// A batch end to end: the real Worker (wrangler dev) and a real render node, driven by the CLI as a user would
// (`studio render SLUG --batch rows.json --out DIR`). A tiny composition declares a colour variable painted on a
// swatch; a 2-row batch renders one file per row, one after another, and the swatch in each file has its row's
// colour. A rows file with a bad row is a usage error naming the row, and nothing is started.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveFfmpeg } from "../../render-node/src/system/resolve-binaries.ts";
import { readPixel } from "../../render-node/test/inspect-video.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";
import { SWATCH_CANVAS, swatchComposition } from "./swatch-composition.ts";
import { signInToSharedStudio, type SharedSignedIn } from "./shared-studio.ts";

let s: SharedSignedIn;
const { ffmpeg } = resolveFfmpeg();
const SLUG = "swatches";

function studio(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "cli", "studio.ts"), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, STUDIO_URL: s.url, STUDIO_TOKEN: s.token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

beforeAll(async () => {
  s = await signInToSharedStudio("e2e-batch");
  expect((await s.call("POST", "/api/projects", { name: "Swatches", html: swatchComposition(SLUG) })).status).toBe(201);
}, 180_000);

describe("studio render --batch", () => {
  it("refuses a bad row before any request, naming it", async () => {
    const dir = join(s.work, "bad");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "rows.json"), JSON.stringify({ rows: [{ swatch: "#ff0000" }, "blue"] }));
    const run = await studio(["render", SLUG, "--batch", "rows.json"], dir);
    expect(run.code).toBe(2);
    expect(run.err).toContain('--batch rows.json: invalid rows[1]: give an object { "variables": {...}, "name"?: "..." }');
    expect(await (await s.call("GET", `/api/projects/${SLUG}/batch`)).json()).toEqual({ status: "none" });
  });

  it("renders one file per row with the row's colour, and downloads both", async () => {
    const dir = join(s.work, "good");
    mkdirSync(dir, { recursive: true });
    // One row in HyperFrames' form (the variables themselves), one in the API's (named).
    writeFileSync(join(dir, "rows.json"), JSON.stringify([{ swatch: "#ff0000" }, { name: "blue", variables: { swatch: "#0000ff" } }]));
    const run = await studio(["render", SLUG, "--batch", "rows.json", "--quality", "draft", "--strict-variables", "--out", "videos"], dir);
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain("batch done: 2 of 2 rows done");
    const files = readdirSync(join(dir, "videos")).sort();
    expect(files).toEqual([expect.stringMatching(/^swatches-0_.*\.mp4$/), expect.stringMatching(/^swatches-blue_.*\.mp4$/)]);
    const [red, blue] = await Promise.all(files.map((f) => readPixel(ffmpeg, join(dir, "videos", f), SWATCH_CANVAS.width, 10, 100, 100)));
    expect(red![0]).toBeGreaterThan(180);
    expect(red![2]).toBeLessThan(80);
    expect(blue![2]).toBeGreaterThan(180);
    expect(blue![0]).toBeLessThan(80);
    // The rows ran one after another: the second render started after the first ended.
    const batch = (await (await s.call("GET", `/api/projects/${SLUG}/batch`)).json()) as { status: string; rows: { renderId: string }[] };
    expect(batch.status).toBe("done");
    const [first, second] = await Promise.all(batch.rows.map(async (r) => (await (await s.call("GET", `/api/renders/${r.renderId}`)).json()) as { startedAt: number; doneAt: number }));
    expect(second!.startedAt).toBeGreaterThanOrEqual(first!.doneAt);
  }, 360_000);
});
