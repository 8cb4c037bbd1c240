// The node's configuration: one schema (src/config/node-config.ts), read once by main.ts. Every variable it knows
// is in render-node/README.md's table, a bad value stops main.ts at start naming the variable (exit code 2), and
// no file of the node but main.ts reads process.env for a setting.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nodeConfigSchema, parseNodeConfig } from "../src/config/node-config.ts";
import { DEFAULT_STAGE_BOUNDS } from "../src/bounds/stage-bounds.ts";
import { DEFAULT_SCRATCH_BUDGET } from "../src/media/scratch-budget.ts";

const run = promisify(execFile);
const NODE_DIR = join(import.meta.dirname, "..");
const REQUIRED = { STUDIO_URL: "http://studio.test", NODE_KEY: "stn_test" };

describe("parseNodeConfig", () => {
  it("fills the defaults", () => {
    const config = parseNodeConfig(REQUIRED);
    expect(config).toMatchObject({
      studioUrl: "http://studio.test", nodeKey: "stn_test", bounds: DEFAULT_STAGE_BOUNDS, scratchBudget: DEFAULT_SCRATCH_BUDGET,
      frameReuse: true, setprivPath: undefined, health: { port: undefined, host: "127.0.0.1" },
      preview: { host: undefined, firstPort: undefined, idleMs: undefined },
    });
    expect(config.concurrency).toBeGreaterThanOrEqual(1);
    expect(config.nodeId).toMatch(/-\d+$/);
  });

  it("reads every variable", () => {
    const config = parseNodeConfig({
      ...REQUIRED, NODE_ID: "farm-2", NODE_CONCURRENCY: "3", CHROME_PATH: "/c", FFMPEG_PATH: "/f", FFPROBE_PATH: "/p", SETPRIV_PATH: "/s",
      PREVIEW_HOST: "0.0.0.0", PREVIEW_FIRST_PORT: "4000", PREVIEW_IDLE_MS: "5000", HEALTH_PORT: "0", HEALTH_HOST: "0.0.0.0",
      FRAME_TIMEOUT_MS: "1500", ENCODE_TIMEOUT_MS: "9000", VIDEO_FRAMES_MAX: "20", STUDIO_FRAME_REUSE: "off",
    });
    expect(config).toMatchObject({
      nodeId: "farm-2", concurrency: 3, binaries: { chromePath: "/c", ffmpegPath: "/f", ffprobePath: "/p" }, setprivPath: "/s",
      preview: { host: "0.0.0.0", firstPort: 4000, idleMs: 5000 }, health: { port: 0, host: "0.0.0.0" },
      bounds: { ...DEFAULT_STAGE_BOUNDS, frameMs: 1500, encodeMs: 9000 }, scratchBudget: { videoFrames: 20 }, frameReuse: false,
    });
  });

  it("refuses a bad value naming the variable and the value", () => {
    expect(() => parseNodeConfig({})).toThrow("STUDIO_URL is required");
    expect(() => parseNodeConfig({ ...REQUIRED, NODE_CONCURRENCY: "two" })).toThrow('NODE_CONCURRENCY must be a positive integer; received "two"');
    expect(() => parseNodeConfig({ ...REQUIRED, HEALTH_PORT: "70000" })).toThrow(/^HEALTH_PORT must be a port number/);
    expect(() => parseNodeConfig({ ...REQUIRED, PREVIEW_IDLE_MS: "10" })).toThrow(/^PREVIEW_IDLE_MS must be .* at least 1000; received "10"/);
    expect(() => parseNodeConfig({ ...REQUIRED, FRAME_TIMEOUT_MS: "5s" })).toThrow(/^FRAME_TIMEOUT_MS must be a whole number of milliseconds/);
  });
});

it("every variable of the schema has a row in render-node/README.md's configuration table", async () => {
  const readme = await readFile(join(NODE_DIR, "README.md"), "utf8");
  const rows = readme.split("\n").filter((line) => line.startsWith("| `"));
  for (const name of Object.keys(nodeConfigSchema.shape)) {
    expect(rows.some((row) => row.split("|")[1]!.includes(`\`${name}\``)), name).toBe(true);
  }
});

it("main.ts stops at start on a bad value, naming the variable, with exit code 2", async () => {
  const env = { PATH: process.env.PATH ?? "", ...REQUIRED, VIDEO_FRAMES_MAX_BYTES: "4G" };
  const failed = await run(process.execPath, [join(NODE_DIR, "main.ts")], { env }).catch((error: { code: number; stderr: string }) => error);
  expect(failed).toMatchObject({ code: 2 });
  expect((failed as { stderr: string }).stderr).toContain('render-node: VIDEO_FRAMES_MAX_BYTES must be a whole number from 1024 to 1125899906842624; received "4G"');
});

it("no file of the node but main.ts reads process.env (child-env.ts copies an allow-list for children; PATH finds binaries)", async () => {
  const files = (await readdir(join(NODE_DIR, "src"), { recursive: true })).filter((name) => name.endsWith(".ts"));
  const readers: string[] = [];
  for (const name of files) {
    const text = await readFile(join(NODE_DIR, "src", name), "utf8");
    const code = text.split("\n").filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line)).join("\n");
    if (/process\.env(?!\.PATH\b)/.test(code)) readers.push(name);
  }
  expect(readers).toEqual(["system/child-env.ts"]);
});
