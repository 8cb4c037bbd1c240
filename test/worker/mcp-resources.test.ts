// Project files as MCP resources and the compose_video prompt, over /mcp through SELF: resources/list names the
// projects and their files by URI, resources/read answers text or a blob with its content type, another user's
// project is not found, and hostile URIs (dot segments in any spelling, backslashes, NUL, a query, another
// project reached by "..") are refused with nothing read; a token in a file is redacted as in every answer.
// prompts/get compose_video carries every composition rule and the loop's tool names.
import { beforeAll, describe, expect, it } from "vitest";
import { COMPOSITION_RULES } from "../../worker/docs/composition-rules.ts";
import { api, createProject, signIn, type Session } from "./helpers.ts";
import { rpc, rpcMessage } from "./mcp-helpers.ts";

interface Contents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

const OTHER_SECRET = "OTHER-PROJECT-FILE-NEVER-READ-BY-DOTS";

let s: Session;

beforeAll(async () => {
  s = await signIn("mcp-resources");
  await createProject(s.token, "Res Demo");
  await createProject(s.token, "Res Other");
  expect((await api(s.token, "PUT", "/api/projects/res-demo/files/notes/hello world.txt", "hello")).ok).toBe(true);
  expect((await api(s.token, "PUT", "/api/projects/res-demo/files/assets/blob.bin?encoding=base64", "AAEC")).ok).toBe(true);
  expect((await api(s.token, "PUT", "/api/projects/res-other/files/secret.txt", OTHER_SECRET)).ok).toBe(true);
});

async function read(uri: string) {
  const { raw, answer } = await rpcMessage(s.token, "resources/read", { uri });
  return { raw, contents: (answer?.result as { contents?: Contents[] } | undefined)?.contents, error: answer?.error };
}

describe("project resources", () => {
  it("lists the projects and their files by URI, and templates for both", async () => {
    const { result } = await rpc(s.token, "resources/list", {});
    const uris = (result as { resources: Array<{ uri: string; mimeType?: string }> }).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        "studio://projects/res-demo",
        "studio://projects/res-other",
        "studio://projects/res-demo/files/index.html",
        "studio://projects/res-demo/files/notes/hello%20world.txt",
        "studio://projects/res-other/files/secret.txt",
      ]),
    );
    const templates = (await rpc(s.token, "resources/templates/list", {})).result as { resourceTemplates: Array<{ uriTemplate: string }> };
    expect(templates.resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(["studio://projects/{slug}", "studio://projects/{slug}/files/{+path}"]);
    const project = await read("studio://projects/res-demo");
    const listing = JSON.parse(project.contents![0]!.text!) as { files: Array<{ path: string; uri: string }> };
    expect(listing.files).toContainEqual(expect.objectContaining({ path: "notes/hello world.txt", uri: "studio://projects/res-demo/files/notes/hello%20world.txt" }));
  });

  it("reads text as text and binaries as a blob, with the content type", async () => {
    const text = await read("studio://projects/res-demo/files/notes/hello%20world.txt");
    expect(text.contents).toEqual([{ uri: "studio://projects/res-demo/files/notes/hello%20world.txt", mimeType: "text/plain", text: "hello" }]);
    const html = await read("studio://projects/res-demo/files/index.html");
    expect(html.contents![0]).toMatchObject({ mimeType: "text/html", text: expect.stringContaining("data-composition-id") });
    const blob = await read("studio://projects/res-demo/files/assets/blob.bin");
    expect(blob.contents![0]).toMatchObject({ mimeType: "application/octet-stream", blob: "AAEC" });
  });

  it("refuses hostile URIs naming the problem, never reading another file; another user's project is not found", async () => {
    for (const uri of [
      "studio://projects/res-demo/files/../../res-other/files/secret.txt",
      "studio://projects/res-demo/files/%2e%2e/%2e%2e/res-other/files/secret.txt",
      "studio://projects/res-demo/files/notes/./hello%20world.txt",
      "studio://projects/res-demo/files/..%2f..%2fres-other%2ffiles%2fsecret.txt",
      "studio://projects/res-demo/files/%252e%252e/secret.txt",
      "studio://projects/res-demo/files/a%5c..%5csecret.txt",
      "studio://projects/res-demo/files/a%00b",
      "studio://projects/res-demo/files/%E2%80%AEevil.html",
      "studio://projects/res-demo/files/notes/hello%20world.txt?x=1",
      "studio://projects/res-demo/files/notes/hello%20world.txt#frag",
      "studio://projects/res-demo/files/notes/",
      "studio://projects/Res-Demo/files/index.html",
      "studio://projects/../me",
      "STUDIO://projects/res-demo/files/index.html",
      `studio://projects/res-demo/files/${"x/".repeat(3000)}`,
    ]) {
      const answer = await read(uri);
      expect(answer.contents, uri).toBeUndefined();
      expect(answer.error?.message, uri).toMatch(/invalid|not found/i);
      expect(answer.raw, uri).not.toContain(OTHER_SECRET);
    }
    // The URL parser would resolve these to another file: refused as they are, before any template sees them.
    for (const uri of ["studio://projects/res-demo/files/../../res-other/files/secret.txt", "studio://projects/res-demo/files/%2e%2e/%2e%2e/res-other/files/secret.txt"]) {
      expect((await read(uri)).error?.message, uri).toMatch(/^invalid resource URI: the URI is not in normal form \(the URL parser reads it as studio:\/\/projects\/res-other\/files\/secret.txt\)/);
    }
    const stranger = await signIn("mcp-resources-stranger");
    const { raw, answer } = await rpcMessage(stranger.token, "resources/read", { uri: "studio://projects/res-other/files/secret.txt" });
    expect(answer?.error, raw).toEqual({ code: -32002, message: "MCP error -32002: no project named res-other (not_found, HTTP 404)" });
  });

  it("redacts a token a file holds", async () => {
    expect((await api(s.token, "PUT", "/api/projects/res-demo/files/notes/token.txt", `mine: ${s.token}`)).ok).toBe(true);
    const answer = await read("studio://projects/res-demo/files/notes/token.txt");
    expect(answer.contents![0]!.text).toBe("mine: [redacted]");
    expect(answer.raw).not.toContain(s.token);
  });
});

describe("the compose_video prompt", () => {
  it("is listed, and teaches every composition rule and the loop with its tools", async () => {
    const listed = (await rpc(s.token, "prompts/list", {})).result as { prompts: Array<{ name: string; arguments?: Array<{ name: string }> }> };
    expect(listed.prompts.map((p) => p.name)).toContain("compose_video");
    const got = (await rpc(s.token, "prompts/get", { name: "compose_video", arguments: { brief: "a 5 second title card", slug: "title-card" } })).result as {
      messages: Array<{ role: string; content: { type: string; text: string } }>;
    };
    const text = got.messages[0]!.content.text;
    expect(text).toMatch(/^Make this video with Studio: a 5 second title card Work in project title-card/);
    for (const rule of COMPOSITION_RULES) expect(text).toContain(rule);
    for (const tool of ["create_project", "write_file", "lint", "check", "snapshot", "render", "get_render"]) expect(text).toContain(tool);
    expect(text).toContain("The starter composition");
    const bad = await rpcMessage(s.token, "prompts/get", { name: "compose_video", arguments: { slug: "../me" } });
    expect(bad.answer?.error?.message).toMatch(/slug/);
  });
});
