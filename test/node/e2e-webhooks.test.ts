// Render webhooks end to end: the real Worker (wrangler dev, with the WebhookOutbox Durable Object and its alarm),
// a real render node, and a local receiver (a node http server) that checks every signature with the
// standardwebhooks package's own verify. Project webhooks and a render's own webhookUrl; done, failed and
// cancelled; a receiver that fails once is retried (same webhook-id) and the attempts show in the API; URLs the
// studio refuses; a rotated secret.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROKEN_HTML } from "../../render-node/test/broken-project.ts";
import { boxPage } from "./box-page.ts";
import { startSignedInStudio, type SignedInStudio } from "./signed-in-studio.ts";

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

let s: SignedInStudio;
let receiver: Server;
let receiverUrl = "";
const received: Received[] = [];
/** Paths that answer 500 the first time they are called. */
const failOnce = new Set<string>(["/flaky"]);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => resolve(body));
  });
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Delivery {
  id: string;
  event: string;
  url: string;
  status: string;
  attempts: Array<{ n: number; status: number | null; error: string | null }>;
}

async function deliveries(renderId: string): Promise<Delivery[]> {
  const res = await s.call("GET", `/api/renders/${renderId}/deliveries`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

/** A render that runs on the node (force: "hooked" is rendered again and again with the same files, which the render
 * cache would answer with copies), waited for. */
async function renderAndWait(slug: string, body: Record<string, unknown>): Promise<{ id: string; status: string }> {
  const res = await s.call("POST", `/api/projects/${slug}/render`, { quality: "draft", wait: true, force: true, ...body });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; status: string };
}

let secret = "";

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body });
    if (failOnce.delete(req.url ?? "")) res.writeHead(500).end("not now");
    else res.writeHead(204).end();
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Loopback receivers are refused by default, locally too: this studio's operator allows the receiver's address.
  s = await startSignedInStudio("e2e-webhooks", { vars: { WEBHOOK_BACKOFF_SECONDS: "1,1", WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" } });
  const created = await s.call("POST", "/api/webhooks/secret");
  expect(created.status).toBe(201);
  secret = ((await created.json()) as { secret: string }).secret;
  expect(secret).toMatch(/^whsec_/);
  expect((await s.call("POST", "/api/projects", { name: "Hooked", html: boxPage("hooked", 1) })).status).toBe(201);
}, 180_000);

afterAll(async () => {
  await s?.studio.stop();
  receiver?.close();
});

describe("render webhooks", () => {
  it("never shows the secret again: GET says only that one exists", async () => {
    const info = (await (await s.call("GET", "/api/webhooks/secret")).json()) as Record<string, unknown>;
    expect(info.configured).toBe(true);
    expect(JSON.stringify(info)).not.toContain(secret);
  });

  it("refuses project webhooks that are not http(s), point at the studio or at a private address WEBHOOK_ALLOWED_HOSTS does not name, changing nothing", async () => {
    const port = new URL(s.url).port;
    const receiverPort = new URL(receiverUrl).port;
    const refused: Array<[string, RegExp]> = [
      ["ftp://example.org/x", /must be http or https/],
      [`${s.url}/api/health`, /points at the studio itself/],
      [`${s.studio.contentUrl}/x`, /points at the studio itself/],
      // The studio itself however loopback is spelled, although 127.0.0.1 is an allowed receiver host.
      [`http://[::ffff:127.0.0.1]:${port}/api/health`, /points at the studio itself/],
      [`http://2130706433:${port}/api/health`, /points at the studio itself/],
      // Loopback receivers that WEBHOOK_ALLOWED_HOSTS does not name, and other private addresses.
      [`http://localhost:${receiverPort}/x`, /loopback host name \(localhost\)/],
      [`http://127.0.0.2:${receiverPort}/x`, /loopback address \(127\.0\.0\.2\)/],
      [`http://[::1]:${receiverPort}/x`, /loopback address/],
      ["http://169.254.169.254/latest/meta-data", /link-local address/],
      ["not a url", /not a valid absolute URL/],
    ];
    for (const [url, why] of refused) {
      const res = await s.call("PUT", "/api/projects/hooked/webhook", { url });
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as { error: string; code: string };
      expect(body.error, url).toMatch(/^invalid url: webhook URL/);
      expect(body.error, url).toMatch(why);
      expect(body.code).toBe("bad_request");
    }
    expect(await (await s.call("GET", "/api/projects/hooked/webhook")).json()).toEqual({ slug: "hooked", webhookUrl: null });
    expect((await s.call("PUT", "/api/projects/nope/webhook", { url: `${receiverUrl}/x` })).status).toBe(404);
  });

  it("calls the project's webhook on render.done, signed so that standardwebhooks' verify accepts it", async () => {
    const put = await s.call("PUT", "/api/projects/hooked/webhook", { url: `${receiverUrl}/project` });
    expect(await put.json()).toEqual({ slug: "hooked", webhookUrl: `${receiverUrl}/project` });
    const render = await renderAndWait("hooked", {});
    expect(render.status).toBe("done");
    const hit = await waitFor("the project webhook", () => received.find((r) => r.path === "/project"));
    const event = new Webhook(secret).verify(hit.body, hit.headers) as { type: string; data: { id: string; status: string; downloadUrl: string } };
    expect(event.type).toBe("render.done");
    expect(event.data).toMatchObject({ id: render.id, status: "done" });
    const video = await fetch(event.data.downloadUrl, { headers: { Authorization: `Bearer ${s.token}` } });
    expect(video.status).toBe(200);
    // Tampering breaks the signature.
    expect(() => new Webhook(secret).verify(hit.body.replace("done", "fail"), hit.headers)).toThrow();
    const [delivery] = await waitFor("a delivered delivery", async () => {
      const list = await deliveries(render.id);
      return list[0]?.status === "delivered" ? list : undefined;
    });
    expect(delivery).toMatchObject({ id: hit.headers["webhook-id"], event: "render.done", url: `${receiverUrl}/project` });
    expect(delivery!.attempts).toEqual([expect.objectContaining({ n: 1, status: 204, error: null })]);
  }, 120_000);

  it("a render's own webhookUrl wins, and a failing receiver is retried with the same webhook-id", async () => {
    const render = await renderAndWait("hooked", { webhookUrl: `${receiverUrl}/flaky` });
    const list = await waitFor("the retried delivery", async () => {
      const all = await deliveries(render.id);
      return all[0]?.status === "delivered" ? all : undefined;
    });
    expect(list[0]!.attempts.map((a) => a.status)).toEqual([500, 204]);
    expect(list[0]!.attempts[0]!.error).toBe("receiver answered 500");
    const hits = received.filter((r) => r.path === "/flaky");
    expect(hits).toHaveLength(2);
    expect(hits[0]!.headers["webhook-id"]).toBe(hits[1]!.headers["webhook-id"]);
    for (const hit of hits) expect(new Webhook(secret).verify(hit.body, hit.headers)).toMatchObject({ type: "render.done" });
    expect(received.filter((r) => r.path === "/project" && r.body.includes(render.id))).toHaveLength(0);
  }, 120_000);

  it("sends render.failed and render.cancelled", async () => {
    expect((await s.call("POST", "/api/projects", { name: "Broken hook", html: BROKEN_HTML.replace('src="', 'src="x') })).status).toBe(201);
    const failed = await renderAndWait("broken-hook", { strict: true, webhookUrl: `${receiverUrl}/failed` });
    expect(failed.status).toBe("failed");
    const failHit = await waitFor("render.failed", () => received.find((r) => r.path === "/failed"));
    expect(new Webhook(secret).verify(failHit.body, failHit.headers)).toMatchObject({ type: "render.failed", data: { id: failed.id, status: "failed" } });

    const started = (await (await s.call("POST", "/api/projects/hooked/render", { quality: "draft", force: true, webhookUrl: `${receiverUrl}/cancelled` })).json()) as { id: string };
    expect(await (await s.call("DELETE", "/api/projects/hooked/render")).json()).toEqual({ stopped: true });
    const cancelHit = await waitFor("render.cancelled", () => received.find((r) => r.path === "/cancelled"));
    expect(new Webhook(secret).verify(cancelHit.body, cancelHit.headers)).toMatchObject({ type: "render.cancelled", data: { id: started.id } });
  }, 120_000);

  it("refuses a render webhookUrl that is not http(s) or points at the studio itself (400), starting nothing", async () => {
    const bad = await s.call("POST", "/api/projects/hooked/render", { webhookUrl: "file:///etc/passwd" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^invalid webhookUrl/);
    // The studio's own origin, although 127.0.0.1 is in WEBHOOK_ALLOWED_HOSTS for the receiver: never the studio.
    const self = await s.call("POST", "/api/projects/hooked/render", { webhookUrl: `${s.url}/api/projects` });
    expect(self.status).toBe(400);
    expect(((await self.json()) as { error: string }).error).toMatch(/^invalid webhookUrl: .*studio itself/);
    expect(((await (await s.call("GET", "/api/projects/hooked/render")).json()) as { status: string }).status).not.toMatch(/queued|running/);
  }, 120_000);

  it("forgets a project's webhook when the project is deleted and made again under the same name", async () => {
    expect((await s.call("POST", "/api/projects", { name: "Reborn", duration: 1 })).status).toBe(201);
    expect((await s.call("PUT", "/api/projects/reborn/webhook", { url: `${receiverUrl}/reborn` })).status).toBe(200);
    expect((await s.call("DELETE", "/api/projects/reborn")).status).toBe(200);
    expect((await s.call("POST", "/api/projects", { name: "Reborn", duration: 1 })).status).toBe(201);
    // The render-end lookup asks the same question (projectHook with the project's creation time).
    expect(await (await s.call("GET", "/api/projects/reborn/webhook")).json()).toEqual({ slug: "reborn", webhookUrl: null });
  });

  it("signs with the new secret after rotation (the old one no longer verifies); other users see no deliveries", async () => {
    const rotated = ((await (await s.call("POST", "/api/webhooks/secret")).json()) as { secret: string }).secret;
    expect(rotated).not.toBe(secret);
    const render = await renderAndWait("hooked", { webhookUrl: `${receiverUrl}/rotated` });
    const hit = await waitFor("the rotated delivery", () => received.find((r) => r.path === "/rotated"));
    expect(new Webhook(rotated).verify(hit.body, hit.headers)).toMatchObject({ data: { id: render.id } });
    expect(() => new Webhook(secret).verify(hit.body, hit.headers)).toThrow();
    const other = await fetch(`${s.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "someone-else" }) });
    const otherToken = ((await other.json()) as { token: string }).token;
    expect((await s.call("GET", `/api/renders/${render.id}/deliveries`, undefined, otherToken)).status).toBe(404);
  }, 120_000);
});
