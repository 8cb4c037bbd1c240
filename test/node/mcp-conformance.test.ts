// The MCP project's own conformance suite (@modelcontextprotocol/conformance, pinned in package.json) against the
// real studio (wrangler dev, one start for every scenario): the server scenarios that apply to a server with tools of
// its own. The others ask for fixture tools, resources and prompts (test_simple_text, test://static-text, ...)
// that only the suite's reference server has.
//
// The credential. /mcp needs a token, and the CLI has no way to send one: `conformance server` takes only --url, its
// client is the SDK's transport built from that URL alone, and dns-rebinding-protection sends its own requests. So
// the CLI talks to a forwarding proxy on 127.0.0.1 (bearer-proxy.ts) that adds "Authorization: Bearer <token>" to
// each request, as an MCP client configured with `headers` does, and passes everything else through (Host and Origin
// as the CLI sent them). The studio's BASE_URL is that proxy's origin: the origin its clients see, as a deployed
// studio's BASE_URL is its public address in front of the Worker. Not chosen: `?token=` in the URL (the Worker
// takes it, but the MCP spec forbids tokens in a query string, and the CLI writes the URL into its results) and a
// Worker without authentication (not the server we ship).
import { spawn } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { startBearerProxy, type BearerProxy } from "./bearer-proxy.ts";
import { startSignedInStudio, type SignedInStudio } from "./signed-in-studio.ts";

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "prompts-list",
  "tools-call-error",
  "dns-rebinding-protection",
] as const;

const CheckSchema = z.object({ id: z.string(), name: z.string(), status: z.string(), errorMessage: z.string().optional() });

/** The CLI's entry, as its package.json names it. */
function conformanceCli(): string {
  const manifest = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json");
  return join(dirname(manifest), "dist", "index.js");
}

/** Runs the CLI (on this Node, the project's 24) to its end; its exit code and everything it printed. */
function runCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [conformanceCli(), ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The checks one scenario's run saved (`-o dir` writes dir/server-<scenario>-<time>/checks.json). */
async function savedChecks(dir: string) {
  const runs = await readdir(dir);
  expect(runs, `result folders in ${dir}`).toHaveLength(1);
  return z.array(CheckSchema).parse(JSON.parse(await readFile(join(dir, runs[0]!, "checks.json"), "utf8")));
}

let proxy: BearerProxy;
let s: SignedInStudio;
const started = Date.now();

beforeAll(async () => {
  proxy = await startBearerProxy();
  s = await startSignedInStudio("mcp-conformance", { renderNode: false, vars: { BASE_URL: proxy.url } });
  proxy.forwardTo(s.url, s.token);
  console.log(`mcp-conformance: studio up in ${Date.now() - started} ms`);
});

afterAll(async () => {
  await proxy?.close();
  await s?.studio.stop();
  if (s) await rm(s.work, { recursive: true, force: true });
  console.log(`mcp-conformance: ${Date.now() - started} ms in all`);
});

describe("MCP conformance suite (server scenarios)", () => {
  it("knows every scenario run here", async () => {
    const { code, output } = await runCli(["list", "--server"]);
    expect(code, output).toBe(0);
    for (const scenario of SCENARIOS) expect(output, scenario).toContain(`- ${scenario} `);
  });

  it.each(SCENARIOS)("%s passes", async (scenario) => {
    const out = join(s.work, "conformance", scenario);
    const t0 = Date.now();
    const { code, output } = await runCli(["server", "--url", `${proxy.url}/mcp`, "--scenario", scenario, "-o", out]);
    const checks = await savedChecks(out);
    console.log(`mcp-conformance: ${scenario} in ${Date.now() - t0} ms, ${checks.map((c) => `${c.id} ${c.status}`).join(", ")}`);
    // A warning is a SHOULD the server misses: as much a finding here as a failure.
    const problems = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${scenario}: ${c.id} ${c.status}: ${c.errorMessage ?? c.name}`);
    expect(problems, output).toEqual([]);
    expect(checks.filter((c) => c.status === "SUCCESS").length, `${scenario}: no check passed (skipped?)\n${output}`).toBeGreaterThan(0);
    expect(code, output).toBe(0);
  });
});
