// The MCP render tool's wait is an event stream too (progress notifications carrying the render's last log line,
// then the answer). Disconnecting the app (its OAuth grant revoked) or rotating the personal token it was called with
// ends the wait within a poll, as a 401 tool error, and no line the node posts afterwards reaches the client.
import { describe, expect, it } from "vitest";
import { awaitJob, nodeCall, registerNode } from "./node-helpers.ts";
import { connect, send, signInPerson, type Person } from "./oauth-helpers.ts";

interface RpcMessage {
  id?: number;
  method?: string;
  params?: { message?: string };
  result?: { isError?: boolean; content?: { text?: string }[] };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function project(person: Person, name: string): Promise<string> {
  const res = await send("/api/projects", { method: "POST", headers: { ...bearer(person.token), "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

/** Calls the render tool with wait: true and progress; resolves with every message once the answer is complete. */
function waitingRender(token: string, slug: string): Promise<RpcMessage[]> {
  return (async () => {
    const res = await send("/mcp", {
      method: "POST",
      headers: { ...bearer(token), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "render", arguments: { slug, quality: "draft", wait: true }, _meta: { progressToken: "p" } } }),
    });
    const raw = await res.text();
    return raw
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as RpcMessage);
  })();
}

/** The answer within `ms`, or null while the tool still waits. */
async function answerWithin(call: Promise<RpcMessage[]>, ms: number): Promise<RpcMessage[] | null> {
  return Promise.race([call, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
}

async function rotated(person: Person): Promise<string> {
  const res = await send("/api/me/token/rotate", { method: "POST", headers: bearer(person.token) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe("an MCP render tool's wait ends with its credential", () => {
  for (const credential of ["an OAuth app disconnected", "a personal token rotated"] as const) {
    it(`${credential}: the wait answers a 401 within seconds, with no later line`, async () => {
      const key = await registerNode(`mcp-wait-${credential.length}`);
      const person = await signInPerson(`mcp-wait ${credential}`);
      const slug = await project(person, `Wait ${credential.length}`);
      const oauth = credential === "an OAuth app disconnected" ? await connect(person, ["projects:read", "projects:write", "render"]) : null;
      const call = waitingRender(oauth ? oauth.access_token : person.token, slug);
      const job = await awaitJob(key, "render");
      expect((await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: ["a line before the end"] })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // a poll or two reports it

      let owner = person.token;
      if (oauth) {
        const listed = (await (await send("/api/me/apps", { headers: bearer(person.token) })).json()) as { apps: { id: string }[] };
        expect((await send(`/api/me/apps/${listed.apps[0]!.id}`, { method: "DELETE", headers: bearer(person.token) })).status).toBe(200);
      } else {
        owner = await rotated(person);
      }
      const secret = `a line after the end ${crypto.randomUUID()}`;
      expect((await nodeCall(key, "POST", `/jobs/${job.id}/progress`, { lines: [secret] })).status).toBe(200);

      const messages = await answerWithin(call, 4000);
      // Whatever happened, the render is stopped so that nothing waits past the test.
      await send(`/api/projects/${slug}/render`, { method: "DELETE", headers: bearer(owner) });
      expect(messages, "the tool was still waiting 4 s after the end").not.toBeNull();
      expect(JSON.stringify(messages)).toContain("a line before the end");
      expect(JSON.stringify(messages)).not.toContain(secret);
      const answer = messages!.find((m) => m.id === 1);
      expect(answer?.result?.isError).toBe(true);
      expect(answer?.result?.content?.[0]?.text).toMatch(/unauthorized/);
    }, 20_000);
  }
});
