// `studio render --from/--to`: the CLI sends a range as the API spells it (seconds as numbers, frames as "1200f"),
// checked here against a loopback stand-in for the studio that records the request and answers a quote.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const bodies: unknown[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let text = "";
  req.on("data", (chunk: Buffer) => (text += chunk.toString()));
  req.on("end", () => {
    bodies.push(JSON.parse(text || "null"));
    const quote = {
      frames: 150, fps: 30, width: 1920, height: 1080, renderSeconds: 10, wallSeconds: 10, segments: 1,
      queue: { position: 1, etaSeconds: null }, model: { version: "test", basis: "test", throughputScale: 1 }, reason: null,
    };
    const budget = { fits: true, budgets: [], resetsAt: new Date(Date.now() + 3_600_000).toISOString() };
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ dryRun: true, quote, budget }));
  });
});

beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function dryRun(...flags: string[]): Promise<unknown> {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  bodies.length = 0;
  const { stdout } = await run(process.execPath, ["cli/studio.ts", "render", "demo", "--dry-run", ...flags], {
    env: { ...process.env, STUDIO_TOKEN: "stk_test", STUDIO_URL: url },
  });
  expect(stdout).toContain("quote: ");
  return bodies[0];
}

describe("CLI render --from/--to", () => {
  it("sends seconds as numbers and frames as given; the help names the flags", async () => {
    expect(await dryRun("--from", "40", "--to", "45.5")).toEqual({ from: 40, to: 45.5, dryRun: true });
    expect(await dryRun("--from", "1200f", "--to", "1350f", "--quality", "draft")).toEqual({ quality: "draft", from: "1200f", to: "1350f", dryRun: true });
    expect(await dryRun("--to", "3")).toEqual({ to: 3, dryRun: true });
    const help = await run(process.execPath, ["cli/studio.ts", "help"]);
    expect(help.stdout).toContain("[--from T] [--to T]     render only that part: seconds (40, 2.5) or frames (1200f)");
  });
});
