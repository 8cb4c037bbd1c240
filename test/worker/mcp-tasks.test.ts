// Renders and batches as MCP tasks (2025-11-25), through the MCP SDK's own Client in workerd, with a render node
// played over the real protocol: a task-augmented render answers its task at once (the render's id in it, durable
// before the answer), tasks/get says "frame n of N" with a poll interval that follows the ETA, tasks/list lists it,
// tasks/result gives the render tool's own answer with the finished video (download, duration, size, a player link
// on the content origin that works without a token), tasks/cancel cancels the render, and another user's tasks/get
// is the specification's -32602 error, never the task. tools/list shows render and render_batch with taskSupport
// "optional" and the player app's ui:// resource, whose CSP names only the content origin. A snapshot is a task
// the same way: its id names the project's snapshot job, tasks/get says what the node is doing, tasks/result is the
// snapshot tool's own answer with the frames as images, tasks/cancel cancels the job.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, BASE, json, signIn, type Session } from "./helpers.ts";
import { awaitJob, claimKind, nodeCall, registerNode } from "./node-helpers.ts";

const CONTENT = "http://content.studio.test";
let alice: Session;
let client: Client;
let mallory: Client;
let nodeKey: string;

async function connect(token: string): Promise<Client> {
  const c = new Client({ name: "mcp-tasks", version: "1.0.0" }, { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: (url, init) => SELF.fetch(String(url), init),
  });
  await c.connect(transport);
  return c;
}

/** A task-augmented tools/call: the CreateTaskResult. */
async function startTask(name: string, args: Record<string, unknown>) {
  return client.request({ method: "tools/call", params: { name, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
}

beforeAll(async () => {
  alice = await signIn("mcp-tasks");
  nodeKey = await registerNode("mcp-tasks-node");
  client = await connect(alice.token);
  mallory = await connect((await signIn("mcp-tasks-other")).token);
});

afterAll(async () => {
  await client?.close();
  await mallory?.close();
});

describe("renders as MCP tasks", () => {
  it("declares tasks and lists render and render_batch as optional tasks linked to the player app", async () => {
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    for (const name of ["render", "render_batch"]) expect(tools.find((t) => t.name === name)?.execution?.taskSupport, name).toBe("optional");
    expect(tools.find((t) => t.name === "get_render")?.execution?.taskSupport ?? "forbidden").toBe("forbidden");
    for (const name of ["render", "get_render"]) expect(tools.find((t) => t.name === name)?._meta).toMatchObject({ ui: { resourceUri: "ui://studio/player.html" } });
    const player = await client.readResource({ uri: "ui://studio/player.html" });
    const content = player.contents[0]!;
    expect(content.mimeType).toBe("text/html;profile=mcp-app");
    expect(content._meta).toMatchObject({ ui: { csp: { resourceDomains: [CONTENT], connectDomains: [] } } });
    expect("text" in content ? content.text : "").toContain(`media-src ${CONTENT}`);
  });

  it("a render task: answered at once, followed frame by frame, listed, hidden from others, and its result the finished video", async () => {
    expect((await api(alice.token, "POST", "/api/projects", { name: "Task Render", duration: 4 })).status).toBe(201);
    const before = Date.now();
    const { task } = await startTask("render", { slug: "task-render", quality: "draft" });
    expect(Date.now() - before).toBeLessThan(2000);
    expect(task).toMatchObject({ status: "working", ttl: null, statusMessage: expect.stringMatching(/^queued/) });
    const job = await awaitJob(nodeKey, "render");
    expect(task.taskId).toBe(`render.${job.id}`);

    // 10 of 120 frames at 10 fps: 11 s left, so about every 2.2 s.
    await nodeCall(nodeKey, "POST", `/jobs/${job.id}/progress`, { lines: ["frame 10/120"], progress: { frame: 10, total: 120, fps: 10, stage: "capturing", etaSeconds: 11 } });
    const running = await client.experimental.tasks.getTask(task.taskId);
    expect(running).toMatchObject({ taskId: task.taskId, status: "working", statusMessage: "frame 10 of 120 (capturing)", pollInterval: 2200 });
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);

    // Another user: the specification's "task not found" (-32602), for get, result and cancel alike.
    for (const ask of [() => mallory.experimental.tasks.getTask(task.taskId), () => mallory.experimental.tasks.cancelTask(task.taskId)]) {
      const refused = await ask().then(() => null, (err: unknown) => err);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(-32602);
    }
    expect((await mallory.experimental.tasks.listTasks()).tasks).toEqual([]);

    await nodeCall(nodeKey, "PUT", `/jobs/${job.id}/output`, new Uint8Array(48).fill(9), { "Content-Type": "video/mp4" });
    await nodeCall(nodeKey, "POST", `/jobs/${job.id}/complete`, { ok: true });
    const done = await client.experimental.tasks.getTask(task.taskId);
    expect(done).toMatchObject({ status: "completed", statusMessage: "done: 48 bytes" });
    expect(done.pollInterval).toBeUndefined();

    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    const video = (result.structuredContent as { video: { download: string; duration: number; frames: number; size: number; elapsedSeconds: number; renderSeconds: number | null; player: { url: string } } }).video;
    expect(video).toMatchObject({ download: expect.stringMatching(new RegExp(`^${BASE}/renders/task-render_.*\\.mp4$`)), duration: 4, frames: 120, size: 48 });
    expect(video.elapsedSeconds).toBeGreaterThanOrEqual(0);
    // The node seconds it used, as the render's state keeps them beside its quote.
    const actual = (await json<{ actual: { renderSeconds: number } }>(await api(alice.token, "GET", `/api/renders/${job.id}`))).actual;
    expect(video.renderSeconds).toBe(actual.renderSeconds);
    // The player's link works with no credential at all, on the content origin.
    expect(new URL(video.player.url).origin).toBe(CONTENT);
    const played = await SELF.fetch(video.player.url);
    expect(played.status).toBe(200);
    expect(new Uint8Array(await played.arrayBuffer())).toEqual(new Uint8Array(48).fill(9));
  });

  it("tasks/cancel cancels the render; a plain call keeps today's answer", async () => {
    expect((await api(alice.token, "POST", "/api/projects", { name: "Task Cancel", duration: 2 })).status).toBe(201);
    const { task } = await startTask("render", { slug: "task-cancel" });
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    expect(await json(await api(alice.token, "GET", "/api/projects/task-cancel/render"))).toMatchObject({ id: task.taskId.slice("render.".length), status: "cancelled" });

    // Without task: the wait-then-handle answer (MCP_RENDER_WAIT_MS is 2.5 s here), not a task.
    const plain = await client.callTool({ name: "render", arguments: { slug: "task-cancel", wait: false } });
    expect(plain.structuredContent).toMatchObject({ status: "queued", next: expect.stringContaining("get_render") });
    expect("task" in plain).toBe(false);
    await api(alice.token, "DELETE", "/api/projects/task-cancel/render");
  });

  it("a call the REST API refuses is a failed task whose result is the REST error; a made-up id is not found", async () => {
    const { task } = await startTask("render", { slug: "no-such-project" });
    expect(task).toMatchObject({ status: "failed", statusMessage: "refused: no project named no-such-project" });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed" });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ error: "no project named no-such-project", code: "not_found", status: 404 });
    for (const made of ["refused.!!", "refused.e30", "render.../x", "batch.Bad_Slug.1", "snapshot.Bad_Slug.1", "snapshot.x", "nothing"]) {
      const refused = await client.experimental.tasks.getTask(made).then(() => null, (err: unknown) => err);
      expect((refused as McpError).code, made).toBe(-32602);
    }
  });

  it("a batch task follows its rows", async () => {
    expect((await api(alice.token, "POST", "/api/projects", { name: "Task Batch", duration: 2 })).status).toBe(201);
    const { task } = await startTask("render_batch", { slug: "task-batch", rows: [{ variables: {} }, { variables: {} }] });
    expect(task.taskId).toMatch(/^batch\.task-batch\.[0-9a-f-]{36}$/);
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working", statusMessage: expect.stringMatching(/^0 of 2 rows done/) });
    expect(await client.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: "cancelled" });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ status: "cancelled", rows: [{ status: "cancelled" }, { status: "cancelled" }] });
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const DAY_MS = 24 * 60 * 60 * 1000;

describe("snapshots as MCP tasks", () => {
  it("a snapshot task: answered at once, followed by its stage, hidden from others, and its result the frames as images", async () => {
    await claimKind(nodeKey, "check"); // the node has asked for work: it counts as available
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "snapshot")?.execution?.taskSupport).toBe("optional");
    expect((await api(alice.token, "POST", "/api/projects", { name: "Task Snap", duration: 4 })).status).toBe(201);
    const { task } = await startTask("snapshot", { slug: "task-snap", at: [1], end: false });
    // The queue keeps an ended job JOB_RETENTION_DAYS (7): so long can its task be read.
    expect(task).toMatchObject({ status: "working", statusMessage: "queued: waiting for a render node", ttl: 7 * DAY_MS, pollInterval: 2000 });
    const job = await awaitJob(nodeKey, "snapshot");
    expect(task.taskId).toBe(`snapshot.task-snap.${job.id}`);
    expect(job.options).toEqual({ at: [1], end: false });

    await nodeCall(nodeKey, "POST", `/jobs/${job.id}/progress`, { lines: [], stage: "capturing frame 1/1 at 1 s" });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "working", statusMessage: "running: capturing frame 1/1 at 1 s" });
    for (const ask of [() => mallory.experimental.tasks.getTask(task.taskId), () => mallory.experimental.tasks.cancelTask(task.taskId)]) {
      const refused = await ask().then(() => null, (err: unknown) => err);
      expect((refused as McpError).code).toBe(-32602);
    }

    await nodeCall(nodeKey, "PUT", `/jobs/${job.id}/files/snapshots/frame-01-1.000s.png`, PNG, { "Content-Type": "image/png" });
    await nodeCall(nodeKey, "POST", `/jobs/${job.id}/complete`, { ok: true, result: { snapshots: [{ path: "snapshots/frame-01-1.000s.png" }], log: ["captured"] } });
    const done = await client.experimental.tasks.getTask(task.taskId);
    expect(done).toMatchObject({ status: "completed", statusMessage: "done: 1 snapshots" });
    expect(done.pollInterval).toBeUndefined();
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ok: true, snapshots: [{ path: "snapshots/frame-01-1.000s.png", size: PNG.length }], log: ["captured"] });
    expect(result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: btoa(String.fromCharCode(...PNG)) });
  });

  it("tasks/cancel cancels the snapshot job; its result is the tool error a plain call gets", async () => {
    await claimKind(nodeKey, "check");
    expect((await api(alice.token, "POST", "/api/projects", { name: "Task Snap Cancel", duration: 2 })).status).toBe(201);
    const { task } = await startTask("snapshot", { slug: "task-snap-cancel" });
    expect(await client.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    const jobId = task.taskId.slice("snapshot.task-snap-cancel.".length);
    expect(await json(await api(alice.token, "GET", `/api/projects/task-snap-cancel/snapshot/${jobId}`))).toMatchObject({ status: "cancelled", error: "cancelled by its owner" });
    expect(await claimKind(nodeKey, "snapshot")).toBeNull();
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ error: "snapshot failed: cancelled by its owner", status: 422 });
  });
});
