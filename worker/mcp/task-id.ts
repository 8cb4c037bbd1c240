// A task's id says what it is: the caller's render ("render.<render id>"), a project's batch
// ("batch.<slug>.<batch id>") or a project's snapshot job ("snapshot.<slug>.<job id>"). Nothing else is stored for a
// task: the render (or batch, or snapshot job) is the task, kept durably by the project's room and its D1 row (the
// queue's, for a snapshot) before POST answers, so tasks/get reads its status where the REST API reads
// it, and with the caller's own credential: another user's task id reads as a missing one. A call the REST API
// refused (a bad option, a cap reached) started nothing, and its task says so in its id alone
// ("refused.<base64url JSON>": the status, the REST error body, when): a failed task whose result is the tool
// error a plain call answers. Pure.
import { projectSlug } from "../../core/paths/identifiers.ts";
import { decodeBase64Text, parseJson } from "../../core/parse-text.ts";
import { base64url } from "../auth/tokens.ts";

export interface Refusal {
  status: number;
  body: Record<string, unknown>;
  /** Epoch ms. */
  at: number;
}

export type TaskRef =
  | { kind: "render"; renderId: string }
  | { kind: "batch"; slug: string; batchId: string }
  | { kind: "snapshot"; slug: string; jobId: string }
  | { kind: "refused"; refusal: Refusal };

/** The longest error message a refused task's id carries (REST messages are a sentence or two). */
export const REFUSAL_MESSAGE_MAX = 1000;

/** UTF-8 text from base64url, or null when it is not base64. */
function textOfBase64url(encoded: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  const binary = decodeBase64Text(encoded.replace(/-/g, "+").replace(/_/g, "/"));
  return binary.ok ? new TextDecoder().decode(Uint8Array.from(binary.value, (c) => c.charCodeAt(0))) : null;
}

/** The refusal a decoded id holds, or null when the JSON is not one. */
function refusalOf(value: unknown): Refusal | null {
  if (!value || typeof value !== "object") return null;
  const { status, body, at } = value as Record<string, unknown>;
  if (typeof status !== "number" || typeof at !== "number" || !body || typeof body !== "object" || Array.isArray(body)) return null;
  return { status, at, body: body as Record<string, unknown> };
}

/** The refusal an id's tail holds; null for a made-up one (not base64, not JSON, not a refusal). */
function refusalFromId(encoded: string): Refusal | null {
  const text = textOfBase64url(encoded);
  const json = text === null ? null : parseJson(text);
  return json?.ok ? refusalOf(json.value) : null;
}

/** What render, batch and job ids look like (UUIDs; a little looser): no dot, no slash, nothing a path would resolve. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

export function taskIdOf(ref: TaskRef): string {
  if (ref.kind === "refused") {
    const { error, code } = ref.refusal.body;
    const body = { error: typeof error === "string" ? error.slice(0, REFUSAL_MESSAGE_MAX) : `HTTP ${ref.refusal.status}`, ...(typeof code === "string" ? { code: code.slice(0, 100) } : {}) };
    return `refused.${base64url(new TextEncoder().encode(JSON.stringify({ status: ref.refusal.status, body, at: ref.refusal.at })))}`;
  }
  if (ref.kind === "snapshot") return `snapshot.${ref.slug}.${ref.jobId}`;
  return ref.kind === "render" ? `render.${ref.renderId}` : `batch.${ref.slug}.${ref.batchId}`;
}

/** The render, batch or snapshot a task id names, or null for an id this server never made. */
export function taskRefOf(taskId: string): TaskRef | null {
  const [kind, ...rest] = taskId.split(".");
  if (kind === "render" && rest.length === 1 && ID.test(rest[0]!)) return { kind, renderId: rest[0]! };
  if (kind === "refused" && rest.length === 1) {
    const refusal = refusalFromId(rest[0]!);
    return refusal && { kind, refusal };
  }
  const projectPart = rest.length === 2 && projectSlug.safeParse(rest[0]).success && ID.test(rest[1]!);
  if (kind === "batch" && projectPart) return { kind, slug: rest[0]!, batchId: rest[1]! };
  if (kind === "snapshot" && projectPart) return { kind, slug: rest[0]!, jobId: rest[1]! };
  return null;
}
