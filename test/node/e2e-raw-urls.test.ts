// End to end against the real Worker (wrangler dev, the studio the node-shared files share): what a hand-written
// request line reaches the Worker as. Requests are sent with node:http, which sends the path byte for byte (like `curl --path-as-is`) and
// any Host header, so nothing on our side normalises them.
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedStudio } from "./shared-studio.ts";

const studio = sharedStudio();
let token = "";
let cookie = "";

interface RawResponse {
  status: number;
  body: string;
}

/** One HTTP/1.1 request with the path exactly as given. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(studio.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers: { ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const auth = () => ({ Authorization: `Bearer ${token}` });

async function paths(): Promise<string[]> {
  const res = await raw("GET", "/api/projects/raw/files", auth());
  return (JSON.parse(res.body) as { files: { path: string }[] }).files.map((f) => f.path);
}

beforeAll(async () => {
  const login = await fetch(`${studio.url}/auth/dev/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "e2e-raw" }),
  });
  token = ((await login.json()) as { token: string }).token;
  cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  const created = await raw("POST", "/api/projects", { ...auth(), "Content-Type": "application/json" }, JSON.stringify({ name: "Raw" }));
  expect(created.status).toBe(201);
});

describe("dot segments on the wire", () => {
  it.each([
    "/api/projects/raw/files/assets/..%2f..%2fescape.txt",
    "/api/projects/raw/files/assets/%2e%2e%5cescape.txt",
    "/api/projects/raw/files/..%5cescape.txt",
    "/api/projects/raw/files/%252e%252e%252fescape.txt",
    "/renders/..%2f..%2fapi%2fme",
  ])("refuses %s with 400, writing nothing", async (path) => {
    const before = await paths();
    const res = await raw("PUT", path, auth(), "pwned");
    expect(res.status).toBe(400);
    expect((JSON.parse(res.body) as { error: string }).error).toMatch(/^invalid path: /);
    expect(await paths()).toEqual(before);
  });

  it("never lets a plain /../ through: workerd resolves it before the Worker runs, inside the caller's own URL space", async () => {
    // What `wrangler dev` (workerd) hands the Worker for these request lines is the resolved path, so they are
    // written as assets/notes.txt, never under a name containing "..". (Cloudflare's edge normalises the same way.)
    for (const path of ["/api/projects/raw/files/assets/x/../notes.txt", "/api/projects/raw/files/assets/x/%2e%2e/notes.txt"]) {
      const res = await raw("PUT", path, auth(), "resolved");
      expect(res.status, res.body).toBe(200);
      expect((JSON.parse(res.body) as { path: string }).path).toBe("assets/notes.txt");
    }
    expect((await paths()).filter((p) => p.includes(".."))).toEqual([]);
  });
});

describe("a forged Host header", () => {
  it("never appears in a link, and does not make a cookie write same-origin", async () => {
    const forged = { Host: "evil.example" };
    for (const path of ["/api/health", "/api/me", "/api/docs", "/api/openapi.json"]) {
      const res = await raw("GET", path, { ...forged, ...auth() });
      expect(res.status, path).toBe(200);
      expect(res.body, path).not.toContain("evil.example");
      expect(res.body, path).toContain(studio.url);
    }
    const write = await raw("PUT", "/api/projects/raw/files/assets/host.txt", { ...forged, ...auth() }, "x");
    expect(write.body).not.toContain("evil.example");
    const csrf = await raw("POST", "/api/projects", { ...forged, Cookie: cookie, Origin: "http://evil.example", "Content-Type": "application/json" }, JSON.stringify({ name: "Forged" }));
    expect(csrf.status).toBe(403);
    expect((await raw("GET", "/api/projects/forged", auth())).status).toBe(404);
  });
});
