// The studio's project tools: projects, files, lint, check and snapshots. Each tool is one REST call (snapshot also
// fetches its PNGs, and is an MCP task when called as one: task-tool.ts), with the input schema of the REST route
// it calls. Slugs and file paths are checked as such
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
import { apiPath, type RestClient } from "./rest-client.ts";
import { base64Of, IMAGE_TYPES, isTextType, READ_FILE_MAX_BYTES } from "./file-content.ts";
import { projectLinks, restBody, restOutput } from "./output-schema.ts";
import { countsText, findingLines, nextText, type Finding } from "./result-text.ts";
import { asTool, toolResult } from "./tool-result.ts";
import { pageArgs } from "./page-args.ts";
import type { SnapshotJob } from "../checks/shapes.ts";
import { snapshotAnswer, snapshotPathOf } from "./snapshot-answer.ts";
import { registerTaskTool } from "./task-tool.ts";
import { snapshotTask } from "./task-status.ts";

export const slugInput = projectSlug.describe(
  `the project's slug: its name in lowercase with hyphens (a-z, 0-9 and -, at most ${MAX_SLUG_LENGTH} characters), as create_project or list_projects gave it`,
);
const pathInput = projectFilePath.describe(
  'a project-relative file path, e.g. "index.html" or "compositions/intro.html" (a trailing "/" names a directory); ' +
    `no "." or ".." segments, empty segments, backslashes, leading "/", NUL or invisible characters; at most ${MAX_PATH_LENGTH} characters`,
);

export const files = (slug: string, path?: string) => apiPath("/api/projects", slug, "files") + (path ? `/${apiPath(path)}` : "");

/** The absolute links of a project, for a model's next call. */
export function linksOf(rest: RestClient, slug: string) {
  return { project: rest.origin + apiPath("/api/projects", slug), files: rest.origin + files(slug), render: rest.origin + apiPath("/api/projects", slug, "render") };
}

const withLinks = (schema: z.ZodObject) => schema.extend({ links: projectLinks });

/** What read_file answers besides the file itself (the text, or the image as image content). */
const readFileOutput = z.object({
  slug: z.string(),
  path: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  url: z.string().describe("absolute REST URL of the file: GET it (with your token) for the bytes, Range works"),
  text: z.string().optional().describe("the file's text, for text files"),
  base64: z.string().optional().describe("the file's bytes, for binaries other than images"),
  image: z.boolean().optional().describe("true when the file is an image, returned as image content"),
  tooLarge: z.boolean().optional().describe(`true past ${READ_FILE_MAX_BYTES} bytes: nothing inline, GET url instead`),
});

interface Verdict {
  ok: boolean;
  result: { errorCount: number; warningCount: number; infoCount: number; findings: Finding[]; lint?: { findings: Finding[] }; runtime?: { findings: Finding[] }; layout?: { findings: Finding[] } };
}

/** "Lint of x: ok, 0 errors, 1 warning." and the findings, one per line. */
function verdictText(what: string, slug: string, answer: Verdict): string {
  const r = answer.result;
  const all = r.findings ?? [...(r.lint?.findings ?? []), ...(r.runtime?.findings ?? []), ...(r.layout?.findings ?? [])];
  const head = `${what} of ${slug}: ${answer.ok ? "ok" : "not ok"}, ${countsText(r)}.`;
  return all.length ? `${head}\n${findingLines(all)}` : `${head} No findings.`;
}

/**
 * `asTask` says whether `snapshot` is registered as a task tool for this request (task-calls.ts); `snapshotTtlMs` is
 * how long its task can be read (the queue keeps ended jobs that long: JOB_RETENTION_DAYS).
 */
export function registerProjectTools(server: McpServer, rest: RestClient, asTask: (tool: string) => boolean, snapshotTtlMs: number): void {
  server.registerTool(
    "list_projects",
    {
      description: "List your projects (newest first) with their duration, preview and last render state; with limit, pass the answer's next for the following page.",
      inputSchema: pageArgs,
      outputSchema: restOutput("listProjects"),
    },
    (args) =>
      asTool(async () => {
        const answer = await rest.json<{ projects: Array<{ name: string; duration: number | null; render: { status: string } | null }>; next: string | null }>({ path: "/api/projects", query: args });
        const lines = answer.projects.map((p) => `- ${p.name}: ${p.duration ?? "?"} s, render ${p.render?.status ?? "none"}`);
        return toolResult(rest.origin, `${answer.projects.length} projects.${nextText(answer.next)}\n${lines.join("\n")}`.trim(), answer);
      }),
  );

  server.registerTool(
    "create_project",
    {
      description:
        "Create a video project. Without html you get a starter composition (copy its structure). html is the whole " +
        "index.html; files maps paths to text contents. 409 when the slug exists. Composition rules:\n" +
        compositionRulesList(),
      inputSchema: createProjectBody().shape,
      outputSchema: withLinks(restOutput("createProject", 201)),
    },
    (args) =>
      asTool(async () => {
        const answer = await rest.json<{ slug: string; written: string[] }>({ method: "POST", path: "/api/projects", json: args });
        const text = `Created project ${answer.slug} (${answer.written.join(", ")}). Next: read_file index.html, write_file your composition, then lint.`;
        return toolResult(rest.origin, text, { ...answer, links: linksOf(rest, answer.slug) });
      }),
  );

  server.registerTool(
    "get_project",
    {
      description: "A project's summary, meta.json and file list, and a one-hour contentUrl to view it.",
      inputSchema: { slug: slugInput },
      outputSchema: withLinks(restOutput("getProject")),
    },
    ({ slug }) =>
      asTool(async () => {
        const answer = await rest.json<{ project: { duration: number | null; render: { status: string } | null }; files: unknown[]; contentUrl: string }>({ path: apiPath("/api/projects", slug) });
        const text = `Project ${slug}: ${answer.files.length} files, ${answer.project.duration ?? "?"} s, render ${answer.project.render?.status ?? "none"}. View it (one hour): ${answer.contentUrl}`;
        return toolResult(rest.origin, text, { ...answer, links: linksOf(rest, slug) });
      }),
  );

  server.registerTool(
    "delete_project",
    {
      description: "Delete a project and all its files (stops its render and preview; rendered videos are kept).",
      inputSchema: { slug: slugInput },
      outputSchema: restOutput("deleteProject"),
    },
    ({ slug }) => asTool(async () => toolResult(rest.origin, `Deleted project ${slug}; its rendered videos are kept (list_renders).`, await rest.json({ method: "DELETE", path: apiPath("/api/projects", slug) }))),
  );

  server.registerTool(
    "list_files",
    {
      description: "Every file and directory of a project, recursively, with sizes.",
      inputSchema: { slug: slugInput },
      outputSchema: withLinks(restOutput("listFiles")),
    },
    ({ slug }) =>
      asTool(async () => {
        const answer = await rest.json<{ files: Array<{ path: string; size: number; type: string }> }>({ path: files(slug) });
        const lines = answer.files.map((f) => `- ${f.path}${f.type === "directory" ? "" : ` (${f.size} bytes)`}`);
        return toolResult(rest.origin, `${answer.files.length} files in ${slug}:\n${lines.join("\n")}`, { ...answer, links: linksOf(rest, slug) });
      }),
  );

  server.registerTool(
    "read_file",
    {
      description: "Read a project file: text files as text, PNG/JPEG/GIF/WebP as images, other binaries as base64.",
      inputSchema: { slug: slugInput, path: pathInput },
      outputSchema: readFileOutput,
    },
    ({ slug, path }) =>
      asTool(async (): Promise<CallToolResult> => {
        const res = await rest.fetch({ path: files(slug, path) });
        const size = Number(res.headers.get("Content-Length") ?? "0");
        const contentType = (res.headers.get("Content-Type") ?? "application/octet-stream").split(";")[0]!.trim();
        const about = { slug, path, contentType, size, url: rest.origin + files(slug, path) };
        if (size > READ_FILE_MAX_BYTES) {
          await res.body?.cancel();
          return toolResult(rest.origin, `${path} is ${size} bytes, over ${READ_FILE_MAX_BYTES}: GET ${about.url} instead.`, { ...about, tooLarge: true });
        }
        if (isTextType(contentType)) {
          const text = await res.text();
          return { content: [{ type: "text", text }], structuredContent: { ...about, text } };
        }
        const bytes = new Uint8Array(await res.arrayBuffer());
        const sized = { ...about, size: bytes.byteLength };
        if (IMAGE_TYPES.includes(contentType)) return { content: [{ type: "image", data: base64Of(bytes), mimeType: contentType }], structuredContent: { ...sized, image: true } };
        return toolResult(rest.origin, `${path}: ${bytes.byteLength} bytes of ${contentType}, as base64 in the structured result.`, { ...sized, base64: base64Of(bytes) });
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
      outputSchema: restOutput("writeFile"),
    },
    ({ slug, path, content, encoding }) =>
      asTool(async () => {
        const answer = await rest.json<{ path: string; bytes: number }>({ method: "PUT", path: files(slug, path), query: { encoding: encoding === "base64" ? "base64" : undefined }, raw: content });
        return toolResult(rest.origin, `Wrote ${answer.bytes} bytes to ${answer.path} in ${slug}. Next: lint.`, answer);
      }),
  );

  server.registerTool(
    "delete_file",
    {
      description: "Delete a project file or directory (index.html cannot be deleted).",
      inputSchema: { slug: slugInput, path: pathInput },
      outputSchema: restOutput("deleteFile"),
    },
    ({ slug, path }) => asTool(async () => toolResult(rest.origin, `Deleted ${path} from ${slug}.`, await rest.json({ method: "DELETE", path: files(slug, path) }))),
  );

  server.registerTool(
    "lint",
    {
      description:
        "Lint a project's compositions (fast, no browser). Fix every error before rendering; warnings are usually fine. " +
        "Each finding has code, severity, message, file and often a fixHint.",
      inputSchema: { slug: slugInput, ...restBody("lintProject").shape },
      outputSchema: restOutput("lintProject"),
    },
    ({ slug, ...body }) =>
      asTool(async () => {
        const answer = await rest.json<Verdict & Record<string, unknown>>({ method: "POST", path: apiPath("/api/projects", slug, "lint"), json: body });
        return toolResult(rest.origin, verdictText("Lint", slug, answer), answer);
      }),
  );

  server.registerTool(
    "check",
    {
      description:
        "Lint plus the composition loaded in headless Chromium (script errors, missing assets, blocked requests, " +
        "timelines not registered) plus layout inspection (clipped, overflowing, off-canvas and overlapping text) at " +
        "sample times. Slower than lint (seconds).",
      inputSchema: { slug: slugInput, ...checkBody().shape },
      outputSchema: restOutput("checkProject"),
    },
    ({ slug, ...body }) =>
      asTool(async () => {
        const answer = await rest.json<Verdict & Record<string, unknown>>({ method: "POST", path: apiPath("/api/projects", slug, "check"), json: body });
        return toolResult(rest.origin, verdictText("Check", slug, answer), answer);
      }),
  );

  registerTaskTool(
    server,
    "snapshot",
    asTask("snapshot"),
    {
      description:
        "PNG frames of the composition exactly as a render captures them (default 5 evenly spaced frames plus the " +
        "end frame, then a contact sheet), returned as images. Look at them before rendering. As an MCP task (call it " +
        "with task: { ttl }), it answers the task at once: tasks/get says what the render node is doing, tasks/result " +
        "gives this same answer with the images once it ends, tasks/cancel cancels it.",
      inputSchema: { slug: slugInput, ...snapshotBody().shape },
      outputSchema: restOutput("snapshotProject"),
    },
    ({ slug, ...body }) =>
      asTool(async (): Promise<CallToolResult> => {
        const answer = await rest.json<{ ok: boolean; snapshots: Array<{ path: string; size: number; url: string }>; log: string[] }>({
          method: "POST",
          path: snapshotPathOf(slug),
          json: body,
        });
        return snapshotAnswer(rest, slug, answer);
      }),
    async ({ slug, ...body }) => snapshotTask(await rest.json<SnapshotJob>({ method: "POST", path: snapshotPathOf(slug), json: { ...body, wait: false } }), slug, snapshotTtlMs, Date.now()),
  );
}
