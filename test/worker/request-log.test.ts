// Operations: every request is one JSON log line (request id, route pattern, status, duration, caller kind) with
// no token or user id in it, the id comes back as X-Request-Id, and /api/health names the build.
import { afterEach, describe, expect, it, vi } from "vitest";
import { TRACE_REGIONS } from "../../bench/d1-trace/trace-d1.ts";
import { api, json, signIn } from "./helpers.ts";
import { bearer, send } from "./traced-worker.ts";

afterEach(() => vi.restoreAllMocks());

/** The JSON log lines written while `run` ran. */
async function logLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation((...args) => void lines.push(args.map(String).join(" ")));
  await run();
  vi.restoreAllMocks();
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe("request log", () => {
  it("writes one line per request with the route pattern, never the token, the slug or the user id", async () => {
    const alice = await signIn("log-alice");
    await api(alice.token, "POST", "/api/projects", { name: "Secret Plans" });
    let res: Response | undefined;
    const lines = await logLines(async () => {
      res = await api(alice.token, "PUT", "/api/projects/secret-plans/files/assets/diary.txt", "dear diary");
    });
    expect(res!.status).toBe(200);
    const requests = lines.filter((l) => l.event === "request");
    expect(requests).toHaveLength(1);
    const line = requests[0]!;
    expect(line).toMatchObject({ level: "info", method: "PUT", status: 200, caller: "token" });
    expect(line.route).toBe("/api/projects/:slug/files/*");
    expect(typeof line.durationMs).toBe("number");
    expect(line.requestId).toBe(res!.headers.get("X-Request-Id"));
    const text = JSON.stringify(lines);
    for (const secret of [alice.token, alice.userId, "secret-plans", "diary"]) expect(text).not.toContain(secret);
  });

  it("logs a refused request with its status, and no trace of the credential it carried", async () => {
    const lines = await logLines(() => api("not-a-token", "GET", "/api/projects"));
    const line = lines.find((l) => l.event === "request")!;
    expect(line).toMatchObject({ level: "info", status: 401, caller: "anonymous" });
    expect(line.route).toMatch(/^\/api\/projects/);
    expect(JSON.stringify(lines)).not.toContain("not-a-token");
  });
});

describe("where a request's D1 calls were served", () => {
  const requestLine = (lines: Record<string, unknown>[]) => lines.filter((l) => l.event === "request").at(-1)!;

  it("is on its log line: the board's reads at a replica, its writes at the primary (D1 modelled with replicas)", async () => {
    // The bench's traced binding (bench/d1-trace/trace-d1.ts) answers as replicated D1 does: a read in a session
    // served by a replica in its region, everything else by the primary in its own, each said in the answer's meta.
    const read = requestLine(await logLines(() => send("/api/ideas")));
    expect(read).toMatchObject({ route: "/api/ideas", status: 200, servedByPrimary: 0 });
    expect(read.d1Calls).toBeGreaterThan(0);
    expect(read.servedByRegion).toEqual({ [TRACE_REGIONS.replica]: read.d1Calls });

    const { token } = await signIn("Logged Lena");
    const body = JSON.stringify({ title: "Where reads are served", body: "In the log.", force: true });
    const write = requestLine(await logLines(() => send("/api/ideas", { method: "POST", headers: bearer(token, { "Content-Type": "application/json" }), body })));
    expect(write).toMatchObject({ route: "/api/ideas", status: 201 });
    expect(write.servedByPrimary).toBeGreaterThan(0);
    expect((write.servedByRegion as Record<string, number>)[TRACE_REGIONS.primary]).toBe(write.servedByPrimary);
  });

  it("counts every call, the one local copy answering each as the primary", async () => {
    const alice = await signIn("log-served-alice");
    const line = requestLine(await logLines(() => api(alice.token, "GET", "/api/projects")));
    expect(line.d1Calls).toBeGreaterThan(0);
    expect(line.servedByPrimary).toBe(line.d1Calls);
  });
});

describe("GET /api/health", () => {
  it("reports the build the Worker runs", async () => {
    const body = await json<{ version: string; build: { id: string } | null }>(await api(null, "GET", "/api/health"));
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(body.build).not.toBeNull();
    expect(body.build!.id).toMatch(/\S/);
  });
});
