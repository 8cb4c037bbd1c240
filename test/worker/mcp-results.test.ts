// MCP results a model can use, over /mcp through SELF: every tool declares an outputSchema, and in a real walk
// (a project made, written, read, linted, checked, snapshotted and rendered with a node played over the real
// protocol, renders listed and deleted, ideas posted) each answer's structured content validates against the JSON
// schema tools/list declares for it (read back with zod's JSON-schema reader, as a client would), carries absolute
// links, and comes with a short text rather than the JSON again. The render tool answers with the finished render
// within its wait (MCP_RENDER_WAIT_MS, 2.5 s here) or with a handle, and wait: true goes past it.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { api, BASE, json, signIn, type Session } from "./helpers.ts";
import { callTool, rpc, rpcMessage, textOf, type ToolResult } from "./mcp-helpers.ts";
import { awaitJob, claim, claimKind, nodeCall, registerNode } from "./node-helpers.ts";

interface ListedTool {
  name: string;
  outputSchema?: { type: string; properties?: Record<string, unknown> };
}

let s: Session;
let nodeKey: string;
const schemas = new Map<string, z.ZodType>();
const validated = new Set<string>();

beforeAll(async () => {
  s = await signIn("mcp-results");
  nodeKey = await registerNode("mcp-results-node");
  const { result } = await rpc(s.token, "tools/list", {});
  for (const tool of (result as { tools: ListedTool[] }).tools) {
    if (tool.outputSchema) schemas.set(tool.name, z.fromJSONSchema(tool.outputSchema as never));
  }
});

/** Calls a tool that must succeed; its structured content must validate against the listed outputSchema. */
async function use(name: string, args: Record<string, unknown>): Promise<ToolResult & { structuredContent: Record<string, unknown> }> {
  const { result } = await callTool(s.token, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  const parsed = schemas.get(name)!.safeParse(result.structuredContent);
  expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  // The text is for reading: a sentence or a few lines, never the structured content again.
  if (name !== "read_file") {
    expect(textOf(result).length, name).toBeGreaterThan(10);
    expect(textOf(result), name).not.toContain(JSON.stringify(result.structuredContent, null, 2));
  }
  validated.add(name);
  return result as ToolResult & { structuredContent: Record<string, unknown> };
}

const absolute = (url: unknown) => expect(String(url)).toMatch(new RegExp(`^${BASE.replace(/\./g, "\\.")}/`));

describe("tool results", () => {
  it("lists an object outputSchema on every tool", async () => {
    const { result } = await rpc(s.token, "tools/list", {});
    const tools = (result as { tools: ListedTool[] }).tools;
    expect(tools.length).toBeGreaterThanOrEqual(22);
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(Object.keys(tool.outputSchema?.properties ?? {}).length, tool.name).toBeGreaterThan(0);
    }
  });

  it("a walk: every answer validates against its outputSchema, with absolute links and a short text", async () => {
    const account = await use("get_account", {});
    expect(account.structuredContent).toMatchObject({ user: { name: expect.any(String) }, storage: { limit: 8388608 } });
    expect(textOf(account)).toMatch(/Storage: \d+ of 8388608 bytes/);

    const created = await use("create_project", { name: "Results Walk", duration: 3 });
    expect(created.structuredContent).toMatchObject({ created: true, slug: "results-walk" });
    const links = created.structuredContent.links as Record<string, string>;
    expect(links).toEqual({
      project: `${BASE}/api/projects/results-walk`,
      files: `${BASE}/api/projects/results-walk/files`,
      render: `${BASE}/api/projects/results-walk/render`,
    });
    expect((await api(s.token, "GET", new URL(links.project!).pathname)).status).toBe(200);
    expect(textOf(created)).toContain("Created project results-walk");

    const project = await use("get_project", { slug: "results-walk" });
    expect(String(project.structuredContent.contentUrl)).toMatch(/^http/);
    expect((await use("list_projects", {})).structuredContent.projects).toHaveLength(1);

    const written = await use("write_file", { slug: "results-walk", path: "notes/a.txt", content: "hello" });
    expect(written.structuredContent).toMatchObject({ written: true, path: "notes/a.txt", bytes: 5 });
    absolute(written.structuredContent.url);
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    await use("write_file", { slug: "results-walk", path: "assets/dot.png", content: pixel, encoding: "base64" });
    await use("write_file", { slug: "results-walk", path: "assets/blob.bin", content: "AAEC", encoding: "base64" });

    const text = await use("read_file", { slug: "results-walk", path: "notes/a.txt" });
    expect(textOf(text)).toBe("hello");
    expect(text.structuredContent).toMatchObject({ path: "notes/a.txt", contentType: expect.stringMatching(/^text\/plain/), size: 5, text: "hello" });
    absolute(text.structuredContent.url);
    const image = await use("read_file", { slug: "results-walk", path: "assets/dot.png" });
    expect(image.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(image.structuredContent).toMatchObject({ image: true, contentType: "image/png" });
    expect((await use("read_file", { slug: "results-walk", path: "assets/blob.bin" })).structuredContent).toMatchObject({ base64: "AAEC", size: 3 });

    const files = await use("list_files", { slug: "results-walk" });
    expect(textOf(files)).toContain("- notes/a.txt (5 bytes)");
    expect((await use("delete_file", { slug: "results-walk", path: "assets/blob.bin" })).structuredContent).toMatchObject({ deleted: true, path: "assets/blob.bin" });

    const lint = await use("lint", { slug: "results-walk" });
    expect(lint.structuredContent).toMatchObject({ ok: true, result: { errorCount: 0 } });
    expect(textOf(lint)).toMatch(/^Lint of results-walk: ok, 0 errors/);
    await use("write_file", { slug: "results-walk", path: "index.html", content: "<html><body><div>no root</div></body></html>" });
    const broken = await use("lint", { slug: "results-walk" });
    expect(broken.structuredContent).toMatchObject({ ok: false });
    expect(textOf(broken)).toMatch(/not ok, [1-9]\d* errors?/);
    expect(textOf(broken)).toMatch(/\n- error \w/);
    await use("delete_project", { slug: "results-walk" });

    // An error is a tool error with the REST body and status as its text, and no structuredContent (which would
    // have to match the outputSchema: the SDK's client refuses one that does not, error or not).
    const { result: missing } = await callTool(s.token, "get_project", { slug: "results-walk" });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toBeUndefined();
    expect(JSON.parse(textOf(missing))).toEqual({ error: "no project named results-walk", code: "not_found", status: 404 });
  });

  it("check and snapshot with a node played over the real protocol", async () => {
    await use("create_project", { name: "Results Browser" });
    const checking = callTool(s.token, "check", { slug: "results-browser", samples: 2 });
    const check = await awaitJob(nodeKey, "check");
    const warning = { code: "off-canvas", severity: "warning", message: "#x is partly outside", file: "index.html", selector: "#x", time: 1, box: { x: 1900, y: 0, width: 100, height: 50 } };
    await nodeCall(nodeKey, "POST", `/jobs/${check.id}/complete`, { ok: true, result: { runtime: [], layout: [warning], times: [1, 3] } });
    const checked = (await checking).result;
    expect(schemas.get("check")!.safeParse(checked.structuredContent).success).toBe(true);
    expect(textOf(checked)).toContain("- warning off-canvas (index.html): #x is partly outside");
    validated.add("check");

    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    const snapping = callTool(s.token, "snapshot", { slug: "results-browser", at: [1], end: false });
    const snap = await awaitJob(nodeKey, "snapshot");
    await nodeCall(nodeKey, "PUT", `/jobs/${snap.id}/files/snapshots/frame-01-1.000s.png`, png, { "Content-Type": "image/png" });
    await nodeCall(nodeKey, "POST", `/jobs/${snap.id}/complete`, { ok: true, result: { snapshots: [{ path: "snapshots/frame-01-1.000s.png" }], log: ["captured"] } });
    const snapped = (await snapping).result;
    expect(snapped.isError, textOf(snapped)).toBeFalsy();
    expect(schemas.get("snapshot")!.safeParse(snapped.structuredContent).success).toBe(true);
    const shot = (snapped.structuredContent!.snapshots as Array<{ url: string }>)[0]!;
    absolute(shot.url);
    expect(snapped.content.filter((c) => c.type === "image")).toHaveLength(1);
    validated.add("snapshot");
  });
});

describe("the render tool's wait", () => {
  /** Plays a node through the claimed render: progress, the file, done. */
  async function finish(jobId: string, bytes: Uint8Array) {
    await nodeCall(nodeKey, "POST", `/jobs/${jobId}/progress`, { lines: ["frame 1/2 (50%)"], progress: { frame: 1, total: 2, fps: 10, stage: "capturing", etaSeconds: 1 } });
    await nodeCall(nodeKey, "PUT", `/jobs/${jobId}/output`, bytes, { "Content-Type": "video/mp4" });
    await nodeCall(nodeKey, "POST", `/jobs/${jobId}/complete`, { ok: true });
  }

  it("returns the finished render with its download link when it ends within the wait", async () => {
    await use("create_project", { name: "Quick Render" });
    const rendering = callTool(s.token, "render", { slug: "quick-render", quality: "draft" });
    const job = await awaitJob(nodeKey, "render");
    await finish(job.id, new Uint8Array(32).fill(7));
    const { result } = await rendering;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(schemas.get("render")!.safeParse(result.structuredContent).success).toBe(true);
    const state = result.structuredContent as { id: string; status: string; next?: string; links: Record<string, string>; lines: string[] };
    expect(state).toMatchObject({ id: job.id, status: "done" });
    expect(state.next).toBeUndefined();
    expect(state.links.render).toBe(`${BASE}/api/renders/${job.id}`);
    absolute(state.links.download);
    expect(textOf(result)).toContain(`is done: ${state.links.download}`);
    const file = await api(s.token, "GET", new URL(state.links.download!).pathname);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(32).fill(7));
    expect((await json<{ id: string }>(await api(s.token, "GET", new URL(state.links.render!).pathname))).id).toBe(job.id);
    validated.add("render");

    const got = await use("get_render", { slug: "quick-render" });
    expect(got.structuredContent).toMatchObject({ id: job.id, status: "done", links: { download: state.links.download } });
    const listed = await use("list_renders", {});
    const entry = (listed.structuredContent.renders as Array<{ id: string; url: string }>)[0]!;
    expect(entry.id).toBe(job.id);
    absolute(entry.url);
    const filename = (got.structuredContent as { filename: string }).filename;
    expect((await use("delete_render", { filename })).structuredContent).toEqual({ deleted: true, filename });
  });

  it("returns a handle with progress notifications when the render does not end in time; wait: true waits past it", async () => {
    await use("create_project", { name: "Slow Render" });
    const before = Date.now();
    const { messages, answer } = await rpcMessage(s.token, "tools/call", { name: "render", arguments: { slug: "slow-render" }, _meta: { progressToken: "slow" } });
    expect(Date.now() - before).toBeGreaterThanOrEqual(2000);
    const handle = (answer!.result as ToolResult).structuredContent as { id: string; status: string; next: string };
    expect(schemas.get("render")!.safeParse(handle).success).toBe(true);
    expect(handle).toMatchObject({ status: "queued", next: expect.stringContaining('call get_render with slug "slow-render"') });
    const progress = messages.filter((m) => m.method === "notifications/progress");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((m) => m.params!.progressToken === "slow")).toBe(true);
    const running = await use("get_render", { slug: "slow-render" });
    expect(running.structuredContent).toMatchObject({ id: handle.id, status: "queued", next: expect.any(String) });

    // wait: true answers only at the end, here after the bound has passed.
    const waiting = callTool(s.token, "render", { slug: "slow-render", wait: true });
    const job = await claim(nodeKey);
    expect(job?.id).toBe(handle.id);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await finish(handle.id, new Uint8Array(8));
    const { result } = await waiting;
    expect(result.structuredContent).toMatchObject({ id: handle.id, status: "done" });

    const stopped = await use("cancel_render", { slug: "slow-render" });
    expect(stopped.structuredContent).toEqual({ stopped: false });
  }, 20_000);

  it("render_batch starts one render per row; get_batch follows it to each row's download link; cancel_batch stops one", async () => {
    await use("create_project", { name: "Batch Tools" });
    expect((await use("get_batch", { slug: "batch-tools" })).structuredContent).toEqual({ status: "none" });
    const started = await use("render_batch", { slug: "batch-tools", quality: "draft", rows: [{ name: "one", variables: { title: "One" } }, { variables: { title: "Two" } }] });
    expect(started.structuredContent).toMatchObject({ status: "queued", rows: [{ index: 0, name: "one", status: "queued" }, { index: 1, status: "pending" }] });
    expect(textOf(started)).toContain('Call get_batch with slug "batch-tools"');
    for (const title of ["One", "Two"]) {
      const job = await awaitJob(nodeKey, "render");
      expect(job.options.variables).toEqual({ title });
      await finish(job.id, new Uint8Array(8));
    }
    const done = await use("get_batch", { slug: "batch-tools" });
    const rows = (done.structuredContent as { rows: { downloadUrl: string }[] }).rows;
    expect(done.structuredContent).toMatchObject({ status: "done" });
    expect(rows.map((r) => r.downloadUrl)).toEqual([expect.stringMatching(new RegExp(`^${BASE}/renders/batch-tools-one_`)), expect.stringMatching(new RegExp(`^${BASE}/renders/batch-tools-1_`))]);
    await use("render_batch", { slug: "batch-tools", rows: [{}, {}] });
    const stopped = await use("cancel_batch", { slug: "batch-tools" });
    expect(stopped.structuredContent).toMatchObject({ stopped: true, batch: { status: "cancelled" } });
    expect(await claimKind(nodeKey, "render")).toBeNull();
  }, 20_000);
});

describe("idea tools", () => {
  it("answer with structured content that validates", async () => {
    const posted = await use("post_idea", { title: "Structured answers for every tool", body: "So a model can act on what it gets back." });
    const id = (posted.structuredContent.idea as { id: number }).id;
    expect(posted.structuredContent.links).toEqual({ idea: `${BASE}/api/ideas/${id}` });
    await use("list_ideas", {});
    await use("check_idea", { title: "Structured answers for every tool", body: "So a model can act on what it gets back." });
    expect((await use("vote_idea", { id })).structuredContent).toMatchObject({ id, voted: expect.any(Boolean) });
    await use("comment_idea", { id, body: "Seconded." });
  });

  it("walked every tool tools/list shows", () => {
    expect([...schemas.keys()].filter((name) => !validated.has(name))).toEqual([]);
  });
});

describe("protocol revisions", () => {
  it("negotiates every revision the SDK supports on the stateless endpoint", async () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(LATEST_PROTOCOL_VERSION);
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const init = await rpc(s.token, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "revision-test", version: "1" } });
      expect((init.result as { protocolVersion: string }).protocolVersion, version).toBe(version);
      // Later requests carry the negotiated revision in MCP-Protocol-Version.
      const listed = await rpcMessage(s.token, "tools/list", {}, { "MCP-Protocol-Version": version });
      expect((listed.answer?.result as { tools: unknown[] }).tools.length, version).toBeGreaterThan(0);
    }
    // The docs name every revision served, so an SDK upgrade that adds one fails here until they do.
    const docs = await (await api(s.token, "GET", "/api/docs")).text();
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) expect(docs, version).toContain(version);
    const unknown = await rpcMessage(s.token, "initialize", { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "x", version: "1" } });
    expect((unknown.answer?.result as { protocolVersion: string }).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });
});
