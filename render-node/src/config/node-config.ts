// The render node's configuration: every environment variable it reads, in one zod schema, parsed once at start
// (main.ts) and passed down as a NodeConfig. No other file of the node reads process.env for a setting, so a bad
// value fails here, at start, naming the variable, instead of in the middle of the first render that reads it.
// render-node/README.md's table lists these keys (node-config.test.ts holds the two together).
import { availableParallelism, hostname } from "node:os";
import * as z from "zod";
import type { BinaryChoice } from "../system/resolve-binaries.ts";
import { DEFAULT_SCRATCH_BUDGET, type ScratchBudget } from "../media/scratch-budget.ts";
import { DEFAULT_STAGE_BOUNDS, type StageBounds } from "../bounds/stage-bounds.ts";

export interface NodeConfig {
  studioUrl: string;
  nodeKey: string;
  nodeId: string;
  /** Browsers (and chunk encoders) per render. */
  concurrency: number;
  binaries: BinaryChoice;
  /** setpriv to tie children's lives to the node's; undefined: the one on PATH (child-lifetime.ts). */
  setprivPath: string | undefined;
  preview: { host: string | undefined; firstPort: number | undefined; idleMs: number | undefined };
  /** GET /healthz; no port: no endpoint. */
  health: { port: number | undefined; host: string };
  bounds: StageBounds;
  scratchBudget: ScratchBudget;
  /** Frame reuse (capture/frame-reuse): on unless STUDIO_FRAME_REUSE turns it off. */
  frameReuse: boolean;
}

/** What a job's capture and ffmpeg steps read of the configuration (the rest stays with main.ts and the job loop). */
export type JobLimits = Pick<NodeConfig, "bounds" | "scratchBudget" | "frameReuse">;

/** A setting the node cannot start with; the message names the variable and the value received. */
export class NodeConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.name = "NodeConfigError";
    this.variable = variable;
  }
}

// An unset variable and an empty one mean the same: the default (as `VAR= cmd` in a shell clears one).
const unset = (value: string | undefined) => value === undefined || value.trim() === "";
const received = (value: string | undefined) => `received ${JSON.stringify(value)}`;

/** A variable holding a whole number in [min, max], or undefined when unset. */
function wholeNumber(rule: string, min: number, max: number) {
  return z.string().optional().transform((value, ctx) => {
    if (unset(value)) return undefined;
    const number = Number(value);
    if (!/^\d+$/.test(value!.trim()) || !Number.isSafeInteger(number) || number < min || number > max) {
      ctx.addIssue({ code: "custom", message: `must be ${rule}; ${received(value)}` });
      return z.NEVER;
    }
    return number;
  });
}

const text = () => z.string().optional().transform((value) => (unset(value) ? undefined : value));
const required = () => z.string().optional().transform((value, ctx) => {
  if (unset(value)) {
    ctx.addIssue({ code: "custom", message: "is required" });
    return z.NEVER;
  }
  return value!;
});
const bound = () => wholeNumber("a whole number of milliseconds from 100 to 86400000", 100, 86_400_000);

/** Every variable the node reads; `.describe()` is its meaning (README's table says the same in more words). */
export const nodeConfigSchema = z.object({
  STUDIO_URL: required().describe("base URL of the Studio Worker"),
  NODE_KEY: required().describe("render-node key, sent as Authorization: Bearer"),
  NODE_ID: text().describe("name the node claims jobs under"),
  NODE_CONCURRENCY: wholeNumber("a positive integer", 1, 32).describe("browsers (and chunk encoders) per render"),
  CHROME_PATH: text().describe("Chromium headless shell binary"),
  CHROME_SOURCE: z.string().optional().transform((value, ctx) => {
    if (unset(value)) return undefined;
    if (value !== "puppeteer") {
      ctx.addIssue({ code: "custom", message: `must be "puppeteer" or unset; ${received(value)}` });
      return z.NEVER;
    }
    return "puppeteer" as const;
  }).describe("puppeteer: a Chrome headless shell from puppeteer's cache"),
  PUPPETEER_CACHE_DIR: text().describe("puppeteer's browser cache"),
  PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL: text().describe("a mirror of the headless shell downloads"),
  FFMPEG_PATH: text().describe("ffmpeg"),
  FFPROBE_PATH: text().describe("ffprobe"),
  SETPRIV_PATH: text().describe("setpriv, to tie children's lives to the node's"),
  PREVIEW_HOST: text().describe("address preview servers listen on"),
  PREVIEW_FIRST_PORT: wholeNumber("a port number from 1 to 65535", 1, 65_535).describe("first port tried for a preview"),
  PREVIEW_IDLE_MS: wholeNumber("a whole number of milliseconds, at least 1000", 1000, Number.MAX_SAFE_INTEGER).describe("a preview without requests this long stops"),
  STUDIO_FRAME_REUSE: z.string().optional().transform((value) => !/^(off|0|false|no)$/i.test(value?.trim() ?? "")).describe("off: capture every frame"),
  PAGE_LOAD_TIMEOUT_MS: bound().describe("stage bound: loading the page"),
  TIMELINE_TIMEOUT_MS: bound().describe("stage bound: the timeline appearing"),
  FRAME_TIMEOUT_MS: bound().describe("stage bound: one frame"),
  ENCODE_TIMEOUT_MS: bound().describe("stage bound: an ffmpeg step"),
  HEALTH_PORT: wholeNumber("a port number (0 picks a free one)", 0, 65_535).describe("port of GET /healthz"),
  HEALTH_HOST: text().describe("address the health endpoint listens on"),
  VIDEO_FRAMES_MAX_BYTES: wholeNumber(`a whole number from 1024 to ${2 ** 50}`, 1024, 2 ** 50).describe("a job's scratch budget for video frames, in bytes"),
  VIDEO_FRAMES_MAX: wholeNumber("a whole number from 1 to 10000000", 1, 10_000_000).describe("the frames a job's video clips may extract"),
});

export type NodeVariable = keyof typeof nodeConfigSchema.shape;

/** The node's configuration from an environment; throws NodeConfigError naming the first bad variable. */
export function parseNodeConfig(env: Record<string, string | undefined>): NodeConfig {
  const result = nodeConfigSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    throw new NodeConfigError(variable, `${variable} ${issue.message}`);
  }
  const v = result.data;
  return {
    studioUrl: v.STUDIO_URL,
    nodeKey: v.NODE_KEY,
    nodeId: v.NODE_ID ?? `${hostname()}-${process.pid}`,
    concurrency: v.NODE_CONCURRENCY ?? availableParallelism(),
    binaries: {
      chromePath: v.CHROME_PATH, chromeSource: v.CHROME_SOURCE, ffmpegPath: v.FFMPEG_PATH, ffprobePath: v.FFPROBE_PATH,
      headlessShell: { cacheDir: v.PUPPETEER_CACHE_DIR, baseUrl: v.PUPPETEER_CHROME_HEADLESS_SHELL_DOWNLOAD_BASE_URL },
    },
    setprivPath: v.SETPRIV_PATH,
    preview: { host: v.PREVIEW_HOST, firstPort: v.PREVIEW_FIRST_PORT, idleMs: v.PREVIEW_IDLE_MS },
    health: { port: v.HEALTH_PORT, host: v.HEALTH_HOST ?? "127.0.0.1" },
    bounds: {
      pageLoadMs: v.PAGE_LOAD_TIMEOUT_MS ?? DEFAULT_STAGE_BOUNDS.pageLoadMs,
      timelineMs: v.TIMELINE_TIMEOUT_MS ?? DEFAULT_STAGE_BOUNDS.timelineMs,
      frameMs: v.FRAME_TIMEOUT_MS ?? DEFAULT_STAGE_BOUNDS.frameMs,
      encodeMs: v.ENCODE_TIMEOUT_MS ?? DEFAULT_STAGE_BOUNDS.encodeMs,
    },
    scratchBudget: {
      videoFrameBytes: v.VIDEO_FRAMES_MAX_BYTES ?? DEFAULT_SCRATCH_BUDGET.videoFrameBytes,
      videoFrames: v.VIDEO_FRAMES_MAX ?? DEFAULT_SCRATCH_BUDGET.videoFrames,
    },
    frameReuse: v.STUDIO_FRAME_REUSE,
  };
}
