// The studio's project tools: projects, files, lint, check and snapshots. Each tool is one REST call (snapshot also
// fetches its PNGs), with the input schema of the REST route it calls. Slugs and file paths are checked as such
// (core/paths/identifiers.ts) before any request is built: a path is a name inside the project, never a way out.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { checkBody, snapshotBody } from "../../core/browser/browser-options.ts";
import { projectFilePath, projectSlug } from "../../core/paths/identifiers.ts";
import { MAX_PATH_LENGTH } from "../../core/paths/project-path.ts";
import { MAX_SLUG_LENGTH } from "../../core/paths/slugify.ts";
import { compositionRulesList } from "../docs/composition-rules.ts";
import { createProjectBody } from "../projects/schemas.ts";
import { lintBody } from "../routes/lint.ts";
import { apiPath, type RestClient } from "./rest-client.ts";
import { asTool, jsonResult } from "./tool-result.ts";
import { pageArgs } from "./page-args.ts";

export const slugInput = projectSlug.describe(
  `the project's slug: its name in lowercase with hyphens (a-z, 0-9 and -, at most ${MAX_SLUG_LENGTH} characters), as create_project or list_projects gave it`,
);
const pathInput = projectFilePath.describe(
  'a project-relative file path, e.g. "index.html" or "compositions/intro.html" (a trailing "/" names a directory); ' +
    `no "." or ".." segments, empty segments, backslashes, leading "/", NUL or invisible characters; at most ${MAX_PATH_LENGTH} characters`,
);

/** Largest file read_file returns inline; larger files are for GET /api/projects/:slug/files/<path>. */
const READ_FILE_MAX_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

function isTextType(contentType: string): boolean {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return type.startsWith("text/") || /(json|xml|javascript|svg)/.test(type);
}

/** Bytes as base64 (btoa takes a binary string; built in chunks so large files do not overflow the call stack). */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const files = (slug: string, path?: string) => apiPath("/api/projects", slug, "files") + (path ? `/${apiPath(path)}` : "");

/** The path part of a snapshot's URL, only if it is one of this project's files (snapshots/…); else null. */
function snapshotPath(slug: string, url: string): { path: string; query: Record<string, string> } | null {
  const parsed = new URL(url, "http://studio.invalid");
  if (!parsed.pathname.startsWith(`${files(slug)}/`)) return null;
  return { path: parsed.pathname, query: Object.fromEntries(parsed.searchParams) };
}

export function registerProjectTools(server: McpServer, rest: RestClient): void {
  server.registerTool(
    "list_projects",
    { description: "List your projects (newest first) with their duration, preview and last render state; with limit, pass the answer's next for the following page.", inputSchema: pageArgs },
    (args) => asTool(async () => jsonResult(await rest.json({ path: "/api/projects", query: args }))),
  );

  server.registerTool(
    "create_project",
    {
      description:
        "Create a video project. Without html you get a starter composition (copy its structure). html is the whole " +
        "index.html; files maps paths to text contents. 409 when the slug exists. Composition rules:\n" +
        compositionRulesList(),
      inputSchema: createProjectBody.shape,
    },
    (args) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: "/api/projects", json: args }))),
  );

  server.registerTool(
    "get_project",
    { description: "A project's summary, meta.json and file list, and a one-hour contentUrl to view it.", inputSchema: { slug: slugInput } },
    ({ slug }) => asTool(async () => jsonResult(await rest.json({ path: apiPath("/api/projects", slug) }))),
  );

  server.registerTool(
    "delete_project",
    { description: "Delete a project and all its files (stops its render and preview; rendered videos are kept).", inputSchema: { slug: slugInput } },
    ({ slug }) => asTool(async () => jsonResult(await rest.json({ method: "DELETE", path: apiPath("/api/projects", slug) }))),
  );

  server.registerTool(
    "list_files",
    { description: "Every file and directory of a project, recursively, with sizes.", inputSchema: { slug: slugInput } },
    ({ slug }) => asTool(async () => jsonResult(await rest.json({ path: files(slug) }))),
  );

  server.registerTool(
    "read_file",
    {
      description: "Read a project file: text files as text, PNG/JPEG/GIF/WebP as images, other binaries as base64.",
      inputSchema: { slug: slugInput, path: pathInput },
    },
    ({ slug, path }) =>
      asTool(async (): Promise<CallToolResult> => {
        const res = await rest.fetch({ path: files(slug, path) });
        const size = Number(res.headers.get("Content-Length") ?? "0");
        if (size > READ_FILE_MAX_BYTES) {
          await res.body?.cancel();
          return jsonResult({ path, size, tooLarge: true, note: `over ${READ_FILE_MAX_BYTES} bytes: GET ${files(slug, path)} instead` });
        }
        const contentType = res.headers.get("Content-Type") ?? "application/octet-stream";
        if (isTextType(contentType)) return { content: [{ type: "text", text: await res.text() }] };
        const bytes = new Uint8Array(await res.arrayBuffer());
        const mimeType = contentType.split(";")[0]!.trim();
        if (IMAGE_TYPES.includes(mimeType)) return { content: [{ type: "image", data: base64Of(bytes), mimeType }] };
        return jsonResult({ path, contentType: mimeType, size: bytes.byteLength, base64: base64Of(bytes) });
      }),
  );

  server.registerTool(
    "write_file",
    {
      description:
        "Create or overwrite a project file (parent directories are created). content is text, or base64 with " +
        'encoding "base64" for binary assets. Then lint.',
      inputSchema: {
        slug: slugInput,
        path: pathInput,
        content: z.string().describe("the whole file content"),
        encoding: z.enum(["utf8", "base64"]).optional().describe('"base64" when content is base64-encoded bytes (default utf8)'),
      },
    },
    ({ slug, path, content, encoding }) =>
      asTool(async () =>
        jsonResult(await rest.json({ method: "PUT", path: files(slug, path), query: { encoding: encoding === "base64" ? "base64" : undefined }, raw: content })),
      ),
  );

  server.registerTool(
    "delete_file",
    { description: "Delete a project file or directory (index.html cannot be deleted).", inputSchema: { slug: slugInput, path: pathInput } },
    ({ slug, path }) => asTool(async () => jsonResult(await rest.json({ method: "DELETE", path: files(slug, path) }))),
  );

  server.registerTool(
    "lint",
    {
      description:
        "Lint a project's compositions (fast, no browser). Fix every error before rendering; warnings are usually fine. " +
        "Each finding has code, severity, message, file and often a fixHint.",
      inputSchema: { slug: slugInput, ...lintBody.shape },
    },
    ({ slug, ...body }) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: apiPath("/api/projects", slug, "lint"), json: body }))),
  );

  server.registerTool(
    "check",
    {
      description:
        "Lint plus the composition loaded in headless Chromium (script errors, missing assets, blocked requests, " +
        "timelines not registered) plus layout inspection (clipped, overflowing, off-canvas and overlapping text) at " +
        "sample times. Slower than lint (seconds).",
      inputSchema: { slug: slugInput, ...checkBody.shape },
    },
    ({ slug, ...body }) => asTool(async () => jsonResult(await rest.json({ method: "POST", path: apiPath("/api/projects", slug, "check"), json: body }))),
  );

  server.registerTool(
    "snapshot",
    {
      description:
        "PNG frames of the composition exactly as a render captures them (default 5 evenly spaced frames plus the " +
        "end frame, then a contact sheet), returned as images. Look at them before rendering.",
      inputSchema: { slug: slugInput, ...snapshotBody.shape },
    },
    ({ slug, ...body }) =>
      asTool(async (): Promise<CallToolResult> => {
        const answer = await rest.json<{ ok: boolean; snapshots: Array<{ path: string; size: number; url: string }>; log: string[] }>({
          method: "POST",
          path: apiPath("/api/projects", slug, "snapshot"),
          json: body,
        });
        const images = await Promise.all(
          answer.snapshots.map(async (shot) => {
            const call = snapshotPath(slug, shot.url);
            if (!call) throw new Error(`snapshot URL outside the project's files: ${shot.url}`);
            const bytes = new Uint8Array(await (await rest.fetch(call)).arrayBuffer());
            return { type: "image" as const, data: base64Of(bytes), mimeType: "image/png" };
          }),
        );
        const summary = { ok: answer.ok, snapshots: answer.snapshots, log: answer.log };
        return { content: [{ type: "text", text: JSON.stringify(summary, null, 2) }, ...images], structuredContent: summary };
      }),
  );
}
