// A task's id says what it is: the caller's render ("render.<render id>") or a project's batch
// ("batch.<slug>.<batch id>"). Nothing else is stored for a task: the render (or batch) is the task, kept durably by
// the project's room and its D1 row before POST answers, so tasks/get reads its status where the REST API reads
// it, and with the caller's own credential: another user's task id reads as a missing one. Pure.
import { projectSlug } from "../../core/paths/identifiers.ts";

export type TaskRef = { kind: "render"; renderId: string } | { kind: "batch"; slug: string; batchId: string };

/** What render and batch ids look like (UUIDs; a little looser): no dot, no slash, nothing a path would resolve. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

export function taskIdOf(ref: TaskRef): string {
  return ref.kind === "render" ? `render.${ref.renderId}` : `batch.${ref.slug}.${ref.batchId}`;
}

/** The render or batch a task id names, or null for an id this server never made. */
export function taskRefOf(taskId: string): TaskRef | null {
  const [kind, ...rest] = taskId.split(".");
  if (kind === "render" && rest.length === 1 && ID.test(rest[0]!)) return { kind, renderId: rest[0]! };
  if (kind === "batch" && rest.length === 2 && projectSlug.safeParse(rest[0]).success && ID.test(rest[1]!)) return { kind, slug: rest[0]!, batchId: rest[1]! };
  return null;
}
