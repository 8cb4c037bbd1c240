// An MCP tool reaches exactly the resource its name and arguments say, and no answer carries a credential. The
// tools call the REST app in-process by URL, so an argument like "../../../me" once made read_file answer GET
// /api/me (token included) and delete_file "../webhook" delete the project's webhook. Here every tool that
// tools/list shows (a new tool is walked without editing this file) gets hostile values in each string argument
// over /mcp (JSON-RPC through SELF.fetch; the server is stateless), and then nothing outside the named resources
// may have changed.
import { beforeAll, describe, expect, it } from "vitest";
import { checkProjectPath, encodePath } from "../../core/paths/project-path.ts";
import { apiPath, requestUrl, RestError } from "../../worker/mcp/rest-client.ts";
import { api, createProject, json, signIn, type Session } from "./helpers.ts";
import { callTool, rpc, textOf, type ToolResult } from "./mcp-helpers.ts";

interface JsonSchemaProperty {
  type?: string | string[];
  enum?: string[];
  anyOf?: JsonSchemaProperty[];
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: JsonSchemaProperty;
}

interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, JsonSchemaProperty>; required?: string[] };
}

/** The SDK's answer when arguments fail a tool's input schema, naming the argument ("… at path"). */
const isInputError = (result: ToolResult, arg: string) =>
  result.isError === true && /^MCP error -32602: Input validation error: Invalid arguments for tool \w+:/.test(textOf(result)) && textOf(result).includes(` at ${arg}`);

const HOSTILE = [
  "../../../me",
  "..%2f..%2fme",
  "..%2F..%2Fme",
  "%2e%2e/me",
  "%2e%2e%2f%2e%2e%2f%2e%2e%2fme",
  "%252e%252e%252fme",
  "a/../../me",
  "notes/x/../keep.txt",
  "../webhook",
  "../../../webhooks/secret",
  "..\\..\\me",
  "..%5c..%5cme",
  "..",
  ".",
  "./me",
  "?x=1",
  "#frag",
  "a?b#c",
  "/api/me",
  "//evil.example/api/me",
  "@evil.example/me",
  "https://evil.example/",
  "a//b",
  "",
  " ",
  "me\u0000",
  "\u0000",
  "\ud800",
  "\u202eevil",
  "ｍｅ/．．/．．",
  "%",
  "x".repeat(70),
  "x".repeat(100_000),
  "../".repeat(300) + "me",
];

/** Arguments that name nothing real, for everything but the argument under attack. */
const BASELINE_STRINGS: Record<string, string> = {
  slug: "demo",
  path: "walk/baseline.txt",
  filename: "demo_2026-01-02_03-04-05.mp4",
  title: "A walk of hostile arguments",
  body: "Nothing to see here, a test body.",
  content: "baseline",
  name: "walk baseline",
};

/** A valid value for a property of a tool's input schema (enough to call it). */
function baselineOf(name: string, prop: JsonSchemaProperty): unknown {
  if (prop.enum?.length) return prop.enum[0];
  if (prop.anyOf) return baselineOf(name, prop.anyOf[0]!);
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  if (type === "string") return BASELINE_STRINGS[name] ?? "baseline";
  if (type === "integer" || type === "number") return prop.minimum ?? (prop.exclusiveMinimum ?? 0) + 1;
  if (type === "boolean") return false;
  // An array that must not be empty (render_batch's rows) gets one baseline item.
  if (type === "array") return prop.minItems && prop.items ? [baselineOf(name, prop.items)] : [];
  return {};
}

const acceptsString = (prop: JsonSchemaProperty): boolean =>
  prop.type === "string" || (Array.isArray(prop.type) && prop.type.includes("string")) || (prop.anyOf ?? []).some(acceptsString);

const HOOK = "https://example.com/hook-of-demo-never-in-an-answer";
const OTHER_HOOK = "https://example.com/hook-of-other-never-in-an-answer";
const OTHER_SECRET = "OTHER-PROJECT-FILE-NEVER-IN-AN-ANSWER";
const KEEP = "DEMO-KEEP-FILE-NEVER-IN-AN-ANSWER";

let s: Session;
let secretCreatedAt: string;

beforeAll(async () => {
  s = await signIn("mcp-walker");
  await createProject(s.token, "Demo");
  await createProject(s.token, "Other");
  expect((await api(s.token, "PUT", "/api/projects/demo/webhook", { url: HOOK })).ok).toBe(true);
  expect((await api(s.token, "PUT", "/api/projects/other/webhook", { url: OTHER_HOOK })).ok).toBe(true);
  expect((await api(s.token, "PUT", "/api/projects/other/files/secret.txt", OTHER_SECRET)).ok).toBe(true);
  expect((await api(s.token, "PUT", "/api/projects/demo/files/notes/keep.txt", KEEP)).ok).toBe(true);
  const secret = await api(s.token, "POST", "/api/webhooks/secret");
  expect(secret.ok).toBe(true);
  secretCreatedAt = (await json<{ createdAt: string }>(secret)).createdAt;
});

/** The webhooks, the other project, the kept file and the token are as the setup left them. */
async function expectNothingElseChanged() {
  expect(await json(await api(s.token, "GET", "/api/projects/demo/webhook"))).toMatchObject({ webhookUrl: HOOK });
  expect(await json(await api(s.token, "GET", "/api/projects/other/webhook"))).toMatchObject({ webhookUrl: OTHER_HOOK });
  expect(await (await api(s.token, "GET", "/api/projects/other/files/secret.txt")).text()).toBe(OTHER_SECRET);
  expect(await (await api(s.token, "GET", "/api/projects/demo/files/notes/keep.txt")).text()).toBe(KEEP);
  expect((await api(s.token, "GET", "/api/projects/demo/files/index.html")).status).toBe(200);
  expect(await json(await api(s.token, "GET", "/api/webhooks/secret"))).toMatchObject({ configured: true, createdAt: secretCreatedAt });
  const me = await api(s.token, "GET", "/api/me"); // the token still works: nothing rotated it
  expect(me.status).toBe(200);
  expect((await json<{ token: string }>(me)).token).toBe(s.token);
}

describe("MCP tool arguments", () => {
  it("read_file ../../../me and delete_file ../webhook are refused naming the argument; the webhook stays", async () => {
    const read = await callTool(s.token, "read_file", { slug: "demo", path: "../../../me" });
    expect(isInputError(read.result, "path"), textOf(read.result)).toBe(true);
    expect(textOf(read.result)).toContain("path may not contain '..'");
    expect(read.raw).not.toContain(s.token);
    const removed = await callTool(s.token, "delete_file", { slug: "demo", path: "../webhook" });
    expect(isInputError(removed.result, "path"), textOf(removed.result)).toBe(true);
    expect(await json(await api(s.token, "GET", "/api/projects/demo/webhook"))).toMatchObject({ slug: "demo", webhookUrl: HOOK });
  });

  it("refuses a bad path with REST's own words for it", async () => {
    for (const path of ["a..b", "x\\y", "a\u0000b", "\u202eevil.html", "/etc/passwd", "a//b", "p".repeat(513)]) {
      const rest = await api(s.token, "GET", `/api/projects/demo/files/${encodePath(path)}`);
      expect(rest.status, path).toBe(400);
      const words = (await json<{ error: string }>(rest)).error.replace(/^invalid path: /, "");
      const { result } = await callTool(s.token, "read_file", { slug: "demo", path });
      expect(isInputError(result, "path"), path).toBe(true);
      expect(textOf(result), path).toContain(words);
    }
  });

  it("walks every listed tool with hostile values in each string argument: refused or confined, never a token", async () => {
    const { result } = await rpc(s.token, "tools/list", {});
    const tools = (result as { tools: ListedTool[] }).tools;
    expect(tools.length).toBeGreaterThanOrEqual(22);
    let calls = 0;
    for (const tool of tools) {
      const props = tool.inputSchema.properties ?? {};
      const baseline: Record<string, unknown> = {};
      for (const name of tool.inputSchema.required ?? []) baseline[name] = baselineOf(name, props[name]!);
      const stringArgs = Object.keys(props).filter((name) => acceptsString(props[name]!));
      for (const arg of stringArgs) {
        await Promise.all(
          HOSTILE.map(async (value) => {
            calls++;
            const args = { ...baseline, [arg]: value };
            const where = `${tool.name} ${arg}=${JSON.stringify(value.slice(0, 40))}`;
            const { raw, result: answer } = await callTool(s.token, tool.name, args);
            // Nothing of another resource in any answer, success or error, text or structured.
            for (const secret of [s.token, HOOK, OTHER_HOOK, OTHER_SECRET, KEEP, "docsUrl"]) expect(raw, where).not.toContain(secret);
            const text = textOf(answer);
            if (answer.isError && !isInputError(answer, arg)) {
              // Past the schema, an error is the named route's own answer in the API's error shape.
              expect(text, where).not.toMatch(/Input validation error/);
              const body = JSON.parse(text) as { error: unknown; status: number };
              expect(typeof body.error, where).toBe("string");
              expect(body.status, `${where}: ${text}`).toBeLessThan(500);
            }
            // An identifier is refused by the schema unless it is a real name, and then the answer is about it.
            if (arg === "slug" || arg === "filename" || arg === "group") expect(isInputError(answer, arg), `${where}: ${text}`).toBe(true);
            if (arg === "path" && !isInputError(answer, "path")) {
              expect(checkProjectPath(encodePath(value)).ok, `${where}: ${text}`).toBe(true);
              if (answer.isError) expect(text, where).toContain(value);
              else if (tool.name !== "read_file") expect(answer.structuredContent?.path, where).toBe(value);
            }
          }),
        );
      }
    }
    expect(calls).toBeGreaterThan(500);
    await expectNothingElseChanged();
  }, 240_000);

  it("refuses idea ids REST would not take", async () => {
    for (const id of [0, -1, 1.5, 1e17, 1e300]) {
      const { result } = await callTool(s.token, "vote_idea", { id });
      expect(isInputError(result, "id"), `${id}: ${textOf(result)}`).toBe(true);
    }
  });
});

describe("no credential in an answer", () => {
  it("get_account leaves the token out; a file holding the token is read back redacted", async () => {
    const account = await callTool(s.token, "get_account", {});
    expect(account.result.isError).toBeFalsy();
    expect(account.result.structuredContent).toMatchObject({ storage: { limit: 8388608 } });
    expect(account.raw).not.toContain(s.token);
    expect(account.result.structuredContent).not.toHaveProperty("token");
    expect(account.result.structuredContent).not.toHaveProperty("curl");
    const other = await signIn("mcp-walker-neighbour");
    const note = `mine: ${s.token}\nsomeone's: ${other.token}\n`;
    expect((await api(s.token, "PUT", "/api/projects/demo/files/notes/token.txt", note)).ok).toBe(true);
    const read = await callTool(s.token, "read_file", { slug: "demo", path: "notes/token.txt" });
    expect(textOf(read.result)).toBe("mine: [redacted]\nsomeone's: [redacted]\n");
    expect(read.raw).not.toContain(s.token);
    expect(read.raw).not.toContain(other.token);
    // An error naming the file quotes the path, and the path is a token: still redacted.
    const missing = await callTool(s.token, "read_file", { slug: "demo", path: s.token });
    expect(missing.result.isError).toBe(true);
    expect(textOf(missing.result)).toContain("no file [redacted] in project demo");
    expect(missing.raw).not.toContain(s.token);
  });
});

describe("the REST client's own check (defence in depth)", () => {
  const origin = "http://studio.test";
  const refused = (path: string) => {
    try {
      requestUrl(origin, { path });
    } catch (err) {
      return err instanceof RestError && err.status === 400 && String(err.body.error).startsWith("invalid path:");
    }
    return false;
  };

  it("sends only a path that names itself", () => {
    for (const path of [
      "/api/projects/demo/files/../../../me",
      "/api/projects/demo/files/./index.html",
      "/api/projects/demo/files/%2e%2e/%2e%2e/%2e%2e/me",
      "/api/projects/demo/files/%2E%2E/webhook",
      "/api/projects/demo/files/..%2f..%2fme",
      "/api/projects/demo/files/%252e%252e/me",
      "/api/projects/demo/files/%25252E%25252E/me",
      "/api/projects/demo/files/a%5c..%5cme",
      "/api/projects/demo/files/a\\..\\me",
      "/api/projects/a%2Fb/files",
      "/api/projects//files",
      "/api/projects/demo?x=1",
      "/api/projects/demo#frag",
      "/api/projects/démo",
      "/api/projects/de mo",
      "api/me",
      "@evil.example/api/me",
      "//evil.example/api/me",
      "",
      "/x".repeat(5000),
    ]) {
      expect(refused(path), path).toBe(true);
    }
  });

  it("keeps what apiPath builds, and query values inside the query", () => {
    const path = `${apiPath("/api/projects", "demo", "files")}/${apiPath("notes/ünïcode ?#%.txt")}`;
    expect(requestUrl(origin, { path }).pathname).toBe(path);
    expect(requestUrl(origin, { path: `${apiPath("/api/projects", "demo", "files")}/assets/` }).pathname).toBe("/api/projects/demo/files/assets/");
    const listed = requestUrl(origin, { path: "/api/projects", query: { next: "../../me?x=1#frag&limit=5", limit: 2, skipped: undefined } });
    expect(listed.pathname).toBe("/api/projects");
    expect(listed.hash).toBe("");
    expect([...listed.searchParams]).toEqual([["next", "../../me?x=1#frag&limit=5"], ["limit", "2"]]);
  });
});
