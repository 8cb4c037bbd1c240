// Project files as MCP resources, for clients that attach context by resource: studio://projects/<slug> is a
// project with its file list (each file with its URI), studio://projects/<slug>/files/<path> one file (text, or a
// base64 blob, with its content type). resources/list lists the newest projects and their files; a project's own
// resource lists all of its files. Every read is the REST read with the caller's credential (rest-client.ts), after
// the URI's slug and path pass the tools' rules (resource-uri.ts); what is sent is redacted like any answer.
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { base64Of, isTextType, READ_FILE_MAX_BYTES } from "./file-content.ts";
import { files } from "./project-tools.ts";
import { FILE_URI_TEMPLATE, fileOfVariables, fileUri, PROJECT_URI_TEMPLATE, projectUri } from "./resource-uri.ts";
import { apiPath, RestError, type RestClient } from "./rest-client.ts";
import { projectSlug } from "../../core/paths/identifiers.ts";
import { PAGE_LIMIT_MAX } from "../http/query.ts";

/** How many of the newest projects resources/list walks (one file listing each, in parallel). */
export const LISTED_PROJECTS = 10;
/** The most files resources/list names; a project's own resource lists every one of its files. */
export const LISTED_FILES = 500;

interface FileEntry {
  path: string;
  size: number;
  type: "file" | "directory";
}

/** A REST error as the JSON-RPC error of a resource read: its message, code and status. */
function asMcpError(err: unknown): never {
  if (err instanceof RestError) {
    const code = typeof err.body.code === "string" ? ` (${err.body.code}, HTTP ${err.status})` : ` (HTTP ${err.status})`;
    throw new McpError(err.status === 404 ? -32002 : ErrorCode.InvalidParams, `${err.message}${code}`);
  }
  throw err;
}

async function projectFiles(rest: RestClient, slug: string): Promise<FileEntry[]> {
  return (await rest.json<{ files: FileEntry[] }>({ path: files(slug) })).files.filter((f) => f.type === "file");
}

export function registerProjectResources(server: McpServer, rest: RestClient): void {
  const slugs = async () => (await rest.json<{ projects: Array<{ name: string }> }>({ path: "/api/projects", query: { limit: PAGE_LIMIT_MAX } })).projects.map((p) => p.name);

  server.registerResource(
    "project",
    new ResourceTemplate(PROJECT_URI_TEMPLATE, {
      list: async () => ({ resources: (await slugs()).map((slug) => ({ uri: projectUri(slug), name: slug, mimeType: "application/json" })) }),
      complete: { slug: async (value) => (await slugs()).filter((slug) => slug.startsWith(value)) },
    }),
    { title: "A project and its files", description: "A project's summary and every file, each with its studio:// URI.", mimeType: "application/json" },
    async (uri, { slug }): Promise<ReadResourceResult> => {
      if (typeof slug !== "string" || !projectSlug.safeParse(slug).success) throw new McpError(ErrorCode.InvalidParams, `invalid slug in ${uri.href}`);
      try {
        const [summary, entries] = await Promise.all([rest.json<{ project: unknown }>({ path: apiPath("/api/projects", slug) }), projectFiles(rest, slug)]);
        const body = { project: summary.project, files: entries.map((f) => ({ ...f, uri: fileUri(slug, f.path) })) };
        return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(body, null, 2) }] };
      } catch (err) {
        return asMcpError(err);
      }
    },
  );

  server.registerResource(
    "project_file",
    new ResourceTemplate(FILE_URI_TEMPLATE, {
      list: async () => {
        const newest = (await slugs()).slice(0, LISTED_PROJECTS);
        const listed = await Promise.all(newest.map(async (slug) => (await projectFiles(rest, slug)).map((f) => ({ slug, ...f }))));
        return {
          resources: listed
            .flat()
            .slice(0, LISTED_FILES)
            .map((f) => ({ uri: fileUri(f.slug, f.path), name: `${f.slug}/${f.path}`, size: f.size })),
        };
      },
      complete: { slug: async (value) => (await slugs()).filter((slug) => slug.startsWith(value)) },
    }),
    { title: "A project file", description: `A file of one of your projects: text, or a base64 blob (at most ${READ_FILE_MAX_BYTES} bytes).` },
    async (uri, variables): Promise<ReadResourceResult> => {
      const file = fileOfVariables(variables);
      if (typeof file === "string") throw new McpError(ErrorCode.InvalidParams, file);
      try {
        const res = await rest.fetch({ path: files(file.slug, file.path) });
        const size = Number(res.headers.get("Content-Length") ?? "0");
        if (size > READ_FILE_MAX_BYTES) {
          await res.body?.cancel();
          throw new McpError(ErrorCode.InvalidParams, `${file.path} is ${size} bytes, over ${READ_FILE_MAX_BYTES}: GET ${rest.origin}${files(file.slug, file.path)}`);
        }
        const mimeType = (res.headers.get("Content-Type") ?? "application/octet-stream").split(";")[0]!.trim();
        if (isTextType(mimeType)) return { contents: [{ uri: uri.href, mimeType, text: await res.text() }] };
        return { contents: [{ uri: uri.href, mimeType, blob: base64Of(new Uint8Array(await res.arrayBuffer())) }] };
      } catch (err) {
        return asMcpError(err);
      }
    },
  );
}
