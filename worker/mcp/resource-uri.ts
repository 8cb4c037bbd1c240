// The URIs of the project resources: studio://projects/<slug> (a project and its file list) and
// studio://projects/<slug>/files/<path> (one file, each path segment percent-encoded). A URI names a file only in
// its normal form: the SDK parses a requested URI with the URL parser before any template sees it, and the parser
// resolves dot segments (also "%2e%2e"), so "…/demo/files/../../other/files/x" would quietly read another
// project's file. refusedResourceReads answers such a request before the SDK sees it; the read callbacks then check
// slug and path by the same rules as the tools (core/paths/identifiers.ts).
import { projectFilePath, projectSlug } from "../../core/paths/identifiers.ts";
import { attempt, parseUrl } from "../../core/parse-text.ts";

export const PROJECT_URI_TEMPLATE = "studio://projects/{slug}";
export const FILE_URI_TEMPLATE = "studio://projects/{slug}/files/{+path}";

export const projectUri = (slug: string) => `studio://projects/${slug}`;
export const fileUri = (slug: string, path: string) => `studio://projects/${slug}/files/${path.split("/").map(encodeURIComponent).join("/")}`;

/** Why a requested resource URI would not name exactly itself once parsed, or null. */
export function resourceUriProblem(raw: string): string | null {
  if (raw.length > 4096) return "the URI is longer than 4096 characters";
  const read = parseUrl(raw);
  if (!read.ok) return "not a URI";
  const parsed = read.value;
  if (parsed.search || parsed.hash) return "a resource URI has no query or fragment";
  if (parsed.href !== raw) return `the URI is not in normal form (the URL parser reads it as ${parsed.href.slice(0, 200)}): no "." or ".." segments, in any encoding`;
  return null;
}

type Message = { jsonrpc?: string; id?: string | number; method?: string; params?: { uri?: unknown } };

/**
 * The JSON-RPC errors answering a message (or batch) that asks to read a resource by a URI not in normal form, or
 * null when there is none (then the SDK answers the message). A refused batch is refused whole.
 */
export function refusedResourceReads(message: unknown): unknown {
  const messages = (Array.isArray(message) ? message : [message]) as Message[];
  const problems = messages.map((m) => (m?.method === "resources/read" && typeof m.params?.uri === "string" ? resourceUriProblem(m.params.uri) : null));
  if (problems.every((p) => p === null)) return null;
  const errors = messages
    .map((m, i) => ({ jsonrpc: "2.0", id: m?.id, error: { code: -32602, message: `invalid resource URI: ${problems[i] ?? "refused with the rest of its batch"}` } }))
    .filter((answer) => answer.id !== undefined);
  return Array.isArray(message) ? errors : errors[0] ?? null;
}

/** The slug and file path a file URI's template variables name, or why they name none. */
export function fileOfVariables(variables: Record<string, string | string[]>): { slug: string; path: string } | string {
  const { slug, path } = variables;
  if (typeof slug !== "string" || typeof path !== "string") return "the URI names no single project file";
  const okSlug = projectSlug.safeParse(slug);
  if (!okSlug.success) return `invalid slug: ${okSlug.error.issues[0]?.message}`;
  const read = attempt(() => path.split("/").map(decodeURIComponent).join("/"));
  if (!read.ok) return "invalid path: bad percent-encoding";
  const decoded = read.value;
  const okPath = projectFilePath.safeParse(decoded);
  if (!okPath.success) return `invalid path: ${okPath.error.issues[0]?.message}`;
  if (decoded.endsWith("/")) return "invalid path: a directory is not a file (read studio://projects/<slug> for the file list)";
  return { slug, path: decoded };
}
