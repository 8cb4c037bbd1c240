// The remote MCP server at /mcp, driven by the MCP SDK's own client over Streamable HTTP against the real Worker
// (wrangler dev) and a real render node: the tool list, a project made, written, linted, snapshotted (PNG image
// content) and rendered as a draft with progress notifications; REST errors as tool errors with the same message;
// bot keys seeing only the idea tools; no token → 401 with WWW-Authenticate. A render run as an MCP task, followed
// with tasks/get to its end, whose result's player link the player app (its ui:// resource) plays in real Chromium
// with no request to any origin but the content origin.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult, type Task } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../browser/harness.ts";
import { boxPage } from "./box-page.ts";
import { sharedStudio, signInToSharedStudio, type SharedSignedIn } from "./shared-studio.ts";

let s: SharedSignedIn;
let client: Client;

const STUDIO_TOOLS = [
  "list_projects", "create_project", "get_project", "delete_project", "list_files", "read_file", "write_file",
  "delete_file", "lint", "check", "snapshot", "render", "get_render", "cancel_render", "list_renders", "delete_render",
  "get_account", "render_batch", "get_batch", "cancel_batch",
];
const IDEA_TOOLS = ["list_ideas", "check_idea", "post_idea", "vote_idea", "comment_idea"];

async function connect(token: string): Promise<Client> {
  const c = new Client({ name: "e2e-mcp", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return c;
}

async function tool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

beforeAll(async () => {
  s = await signInToSharedStudio("e2e-mcp");
  client = await connect(s.token);
}, 180_000);

afterAll(async () => {
  await client?.close();
});

describe("MCP with a personal token", () => {
  it("lists every studio and idea tool, each with an object input schema and a description", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...STUDIO_TOOLS, ...IDEA_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.description?.length).toBeGreaterThan(10);
    }
    const create = tools.find((t) => t.name === "create_project")!;
    expect(create.description).toContain("window.__timelines");
    expect(create.description).toContain("data-composition-id");
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["name", "html", "duration", "files"]));
  });

  it("makes a project, writes and reads a file, lints, and sees it over REST too", async () => {
    const created = await tool("create_project", { name: "MCP Demo", duration: 2 });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ created: true, slug: "mcp-demo" });
    const written = await tool("write_file", { slug: "mcp-demo", path: "notes/hello.txt", content: "héllo from MCP" });
    expect(written.structuredContent).toMatchObject({ written: true, path: "notes/hello.txt" });
    expect(await (await s.call("GET", "/api/projects/mcp-demo/files/notes/hello.txt")).text()).toBe("héllo from MCP");
    expect(textOf(await tool("read_file", { slug: "mcp-demo", path: "notes/hello.txt" }))).toBe("héllo from MCP");
    const files = await tool("list_files", { slug: "mcp-demo" });
    expect(JSON.stringify(files.structuredContent)).toContain("notes/hello.txt");
    const lint = await tool("lint", { slug: "mcp-demo" });
    expect(lint.structuredContent).toMatchObject({ ok: true, exitCode: 0 });
  });

  it("pages list_projects with limit and the answer's next cursor", async () => {
    expect((await tool("create_project", { name: "MCP Second", duration: 2 })).isError).toBeFalsy();
    type Page = { projects: { name: string }[]; next: string | null };
    const first = (await tool("list_projects", { limit: 1 })).structuredContent as Page;
    expect(first.projects).toHaveLength(1);
    expect(typeof first.next).toBe("string");
    const second = (await tool("list_projects", { limit: 1, next: first.next })).structuredContent as Page;
    expect(second.projects).toHaveLength(1);
    expect([first.projects[0]!.name, second.projects[0]!.name].sort()).toEqual(["mcp-demo", "mcp-second"]);
  });

  it("answers REST errors as tool errors with the REST message and status", async () => {
    const rest = await s.call("GET", "/api/projects/no-such-project");
    const restBody = (await rest.json()) as { error: string };
    const missing = await tool("get_project", { slug: "no-such-project" });
    expect(missing.isError).toBe(true);
    // The REST error body and status as the error's text; no structuredContent (it would have to match the outputSchema).
    expect(JSON.parse(textOf(missing))).toMatchObject({ ...restBody, status: 404 });
    expect(missing.structuredContent).toBeUndefined();
    const again = await tool("create_project", { name: "MCP Demo" });
    expect(again.isError).toBe(true);
    expect(JSON.parse(textOf(again))).toMatchObject({ code: expect.any(String), status: 409 });
    // A path REST would refuse never becomes a request: the tool's input schema refuses it with REST's words.
    const traversal = await tool("write_file", { slug: "mcp-demo", path: "a/%2e%2e/b.txt", content: "x" });
    expect(traversal.isError).toBe(true);
    expect(textOf(traversal)).toMatch(/Input validation error: .*path may not contain '\.\.' at path/);
    const protectedIndex = await tool("delete_file", { slug: "mcp-demo", path: "index.html" });
    expect(JSON.parse(textOf(protectedIndex))).toMatchObject({ status: 403 });
  });

  it("returns snapshots as PNG image content", async () => {
    const shot = await tool("snapshot", { slug: "mcp-demo", at: [1], end: false });
    expect(shot.isError).toBeFalsy();
    const images = shot.content.filter((c) => c.type === "image");
    // One frame and the contact sheet.
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.mimeType).toBe("image/png");
      expect([...Buffer.from(image.data, "base64").subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    }
  }, 120_000);

  it("renders a draft with wait, sending progress notifications, and get_render reads the same final state", async () => {
    const progress: number[] = [];
    const result = (await client.callTool({ name: "render", arguments: { slug: "mcp-demo", quality: "draft", wait: true } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      resetTimeoutOnProgress: true,
      timeout: 120_000,
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const final = result.structuredContent as { id: string; status: string; downloadUrl: string; lines: string[]; links: { download: string; render: string; poster?: string } };
    expect(final.status).toBe("done");
    // Links are absolute, so a model can use them as they are.
    expect(final.downloadUrl).toMatch(new RegExp(`^${s.url}/renders/mcp-demo_.*\\.mp4$`));
    expect(final.links).toMatchObject({ download: final.downloadUrl, render: `${s.url}/api/renders/${final.id}` });
    expect(final.lines.length).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
    // Strictly growing, as the protocol requires, and reaching the capture's end.
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);
    expect(Math.max(...progress)).toBeGreaterThanOrEqual(50);
    const read = await tool("get_render", { slug: "mcp-demo" });
    expect(read.structuredContent).toMatchObject({ id: final.id, status: "done" });
    const video = await fetch(final.downloadUrl, { headers: { Authorization: `Bearer ${s.token}` } });
    expect(video.status).toBe(200);
    const videoBytes = (await video.arrayBuffer()).byteLength;
    expect(videoBytes).toBeGreaterThan(1000);
    const renders = await tool("list_renders");
    const filename = final.downloadUrl.slice(`${s.url}/renders/`.length);
    expect(JSON.stringify(renders.structuredContent)).toContain(filename);

    // The account shows the render's bytes in storage, never the token; deleting the render gives them back.
    type Account = { user: { name: string }; storage: { used: number; limit: number; files: number; fileLimit: number } };
    const before = (await tool("get_account")).structuredContent as Account;
    expect(before.storage.used).toBeGreaterThan(videoBytes);
    expect(before.storage.limit).toBe(5 * 1024 ** 3);
    expect(JSON.stringify(before)).not.toContain(s.token);
    const poster = await fetch(final.links.poster!, { headers: { Authorization: `Bearer ${s.token}` } });
    expect(poster.headers.get("Content-Type")).toBe("image/jpeg");
    const posterBytes = (await poster.arrayBuffer()).byteLength;
    const deleted = await tool("delete_render", { filename });
    expect(deleted.structuredContent).toEqual({ deleted: true, filename });
    const after = (await tool("get_account")).structuredContent as Account;
    // The video, its poster (a JPEG beside it) and its carry manifest (the next render's incremental re-render), each
    // counted as a file of its own, all go.
    expect(after.storage.files).toBe(before.storage.files - 3);
    expect(before.storage.used - after.storage.used).toBeGreaterThan(videoBytes + posterBytes);
    expect(JSON.stringify((await tool("list_renders")).structuredContent)).not.toContain(filename);
  }, 180_000);

  it("returns at once with wait: false, as a handle for get_render", async () => {
    const started = await tool("render", { slug: "mcp-demo", quality: "draft", wait: false });
    expect((started.structuredContent as { next: string }).next).toMatch(/call get_render/);
    expect(["queued", "rendering"]).toContain((started.structuredContent as { status: string }).status);
    const cancelled = await tool("cancel_render", { slug: "mcp-demo" });
    expect(cancelled.isError).toBeFalsy();
  });
});

describe("MCP access", () => {
  it("refuses a request without a token with 401 and a Bearer challenge, and a wrong token the same way; bounds the body", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const none = await fetch(`${s.url}/mcp`, { method: "POST", headers, body });
    expect(none.status).toBe(401);
    expect(none.headers.get("WWW-Authenticate")).toMatch(/^Bearer /);
    expect(((await none.json()) as { error: string }).error).toMatch(/^unauthorized:/);
    const wrong = await fetch(`${s.url}/mcp`, { method: "POST", headers: { ...headers, Authorization: "Bearer stu_nope" }, body });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    // A plain HTTP client (curl) gets its answer and the end of the response, not a stream left open.
    const listed = await fetch(`${s.url}/mcp`, { method: "POST", headers: { ...headers, Authorization: `Bearer ${s.token}` }, body });
    expect(listed.status).toBe(200);
    const text = await Promise.race([listed.text(), new Promise<string>((_, reject) => setTimeout(() => reject(new Error("response never ended")), 5000))]);
    expect(text).toContain('"list_projects"');
    const huge = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { ...headers, Authorization: `Bearer ${s.token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_file", arguments: { slug: "mcp-demo", path: "big.txt", content: "x".repeat(11 * 1024 * 1024) } } }),
    });
    expect(huge.status).toBe(413);
    expect((await s.call("GET", "/api/projects/mcp-demo/files/big.txt")).status).toBe(404);
    const garbled = await fetch(`${s.url}/mcp`, { method: "POST", headers: { ...headers, Authorization: `Bearer ${s.token}` }, body: "{not json" });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const get = await fetch(`${s.url}/mcp`, { headers: { Authorization: `Bearer ${s.token}`, Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  it("shows a bot key only the idea-board tools, and its posts land on the board as the bot", async () => {
    const issued = (await (await s.call("POST", "/api/bots", { name: "mcp-bot" })).json()) as { key: string };
    const bot = await connect(issued.key);
    try {
      const { tools } = await bot.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...IDEA_TOOLS].sort());
      const refused = (await bot.callTool({ name: "list_projects", arguments: {} })) as CallToolResult;
      expect(refused.isError).toBe(true);
      const posted = (await bot.callTool({ name: "post_idea", arguments: { title: "MCP posted idea about kinetic typography", body: "Posted through the MCP server by a bot key." } })) as CallToolResult;
      expect(posted.isError).toBeFalsy();
      const idea = (posted.structuredContent as { idea: { id: number } }).idea;
      const dup = (await bot.callTool({ name: "post_idea", arguments: { title: "MCP posted idea about kinetic typography", body: "Posted through the MCP server by a bot key." } })) as CallToolResult;
      expect(dup.isError).toBe(true);
      expect(JSON.parse(textOf(dup))).toMatchObject({ status: 409, exists: true, idea: { id: idea.id } });
      const voted = (await bot.callTool({ name: "vote_idea", arguments: { id: idea.id } })) as CallToolResult;
      expect(voted.isError).toBeFalsy();
    } finally {
      await bot.close();
    }
  });
});

describe("MCP tasks and the player app", () => {
  it("renders as a task followed with tasks/get; the player app plays its result from the content origin only", async () => {
    const tasked = new Client({ name: "e2e-mcp-tasks", version: "1.0.0" }, { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } });
    await tasked.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } }));
    const browser = await launchBrowser();
    try {
      // A small page (html): the task is the point, not the starter's 1920x1080 in VP9 (most of this test's time).
      expect((await tool("create_project", { name: "MCP Task", html: boxPage("mcp-task", 2) })).isError).toBeFalsy();
      // webm (VP9): every Chromium build plays it, where H.264 needs a proprietary-codec build.
      const { task } = await tasked.request({ method: "tools/call", params: { name: "render", arguments: { slug: "mcp-task", format: "webm", quality: "draft" }, task: { ttl: 600_000 } } }, CreateTaskResultSchema);
      expect(task).toMatchObject({ taskId: expect.stringMatching(/^render\./), status: "working" });
      const seen: string[] = [];
      let now: Task = task;
      const deadline = Date.now() + 150_000;
      while (now.status === "working" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(now.pollInterval ?? 1000, 2000)));
        now = await tasked.experimental.tasks.getTask(task.taskId);
        seen.push(now.statusMessage ?? "");
      }
      expect(now.status, seen.join(" | ")).toBe("completed");
      for (const message of seen.filter((m) => m.startsWith("frame"))) expect(message).toMatch(/^frame \d+ of \d+ \(\w+\)$/);

      const result = await tasked.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      const video = (result.structuredContent as { video: { duration: number; size: number; player: { url: string } } }).video;
      expect(video.duration).toBe(2);
      expect(video.size).toBeGreaterThan(1000);
      const { contentUrl } = sharedStudio();
      expect(new URL(video.player.url).origin).toBe(new URL(contentUrl).origin);
      expect(JSON.stringify(result)).not.toContain(s.token);

      const resource = (await tasked.readResource({ uri: "ui://studio/player.html" })).contents[0]!;
      const html = "text" in resource ? resource.text : "";
      expect(html).not.toContain(s.token);

      // A host as the ext-apps specification has it: the app in a sandboxed iframe, answered over postMessage.
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      await page.setContent("<!doctype html><body></body>");
      await page.evaluate(
        ({ html, result }) => {
          const frame = document.createElement("iframe");
          frame.setAttribute("sandbox", "allow-scripts");
          frame.srcdoc = html;
          window.addEventListener("message", (event) => {
            if (event.source !== frame.contentWindow) return;
            const message = event.data as { id?: number; method?: string; params?: { protocolVersion: string } };
            const answer = (reply: object) => frame.contentWindow!.postMessage({ jsonrpc: "2.0", ...reply }, "*");
            if (message.method === "ui/initialize") answer({ id: message.id, result: { protocolVersion: message.params!.protocolVersion, hostInfo: { name: "e2e", version: "1" }, hostCapabilities: {}, hostContext: {} } });
            if (message.method === "ui/notifications/initialized") answer({ method: "ui/notifications/tool-result", params: result });
          });
          document.body.append(frame);
        },
        { html, result },
      );
      const player = page.frames().find((f) => f !== page.mainFrame())!;
      await player.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.3, undefined, { timeout: 30_000 });
      const origins = new Set(requested.filter((url) => /^https?:/.test(url)).map((url) => new URL(url).origin));
      expect([...origins]).toEqual([new URL(contentUrl).origin]);
    } finally {
      await browser.close();
      await tasked.close();
    }
  }, 240_000);
});
