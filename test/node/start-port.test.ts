// `npm start` on a taken port: it refuses at once with a message naming the port and a free one to use, and never
// talks to the server that holds the port (before, it reported success against it). Real processes, real sockets.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPortFree, PortInUseError } from "../../scripts/lib/check-port.ts";
import { startStudio } from "../../scripts/lib/local-studio.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

let foreign: Server;
let port = 0;
const requests: string[] = [];

beforeAll(async () => {
  // A stranger on the port that even answers the studio's health check.
  foreign = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
  port = (foreign.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => foreign.close(() => resolve())));

function npmStart(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "start.ts")], {
      cwd: ROOT, env: { ...process.env, NO_RENDER_NODE: "1", ...env }, stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - began }));
  });
}

describe("npm start on a taken port", () => {
  it("refuses with a clear message, names a free port, and never talks to the server holding it", async () => {
    const run = await npmStart({ PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`npm start: port ${port} on 127.0.0.1 is already in use`);
    const suggested = Number(/run PORT=(\d+) npm start to use the next free port/.exec(run.stderr)?.[1]);
    expect(suggested).toBeGreaterThan(port);
    expect(await isPortFree(suggested, "127.0.0.1")).toBe(true);
    expect(run.stdout).not.toContain("Studio is running");
    expect(requests).toEqual([]);
    // Refused before the dashboard build or wrangler start.
    expect(run.ms).toBeLessThan(15_000);
  }, 30_000);

  it("refuses a PORT that is not a port number", async () => {
    const run = await npmStart({ PORT: "eighty" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('npm start: PORT must be a port number from 1 to 65535; received "eighty"');
  }, 30_000);

  it("startStudio (shared with the end-to-end tests) rejects the taken port before starting anything", async () => {
    const error = await startStudio({ port, dataDir: join(ROOT, ".data-never-created"), renderNode: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortInUseError);
    expect(requests).toEqual([]);
  });
});
