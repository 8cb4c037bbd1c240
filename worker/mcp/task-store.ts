// The task store the SDK's tasks/get, tasks/result, tasks/list and tasks/cancel read (Protocol's `taskStore`
// option), over the REST API with the caller's credential: a task is the caller's render, batch or snapshot job
// (task-id.ts), so there is nothing to create or store here. Another user's task, or an id this server never made,
// is "not found" (null), which the SDK answers with the specification's -32602.
//  - tasks/get: the render's state by id (GET /api/renders/{id}); a batch's from its project (GET …/batch), while it
//    is the project's current or last batch; a snapshot's by id (GET …/snapshot/{id}, which also gives up a job
//    that hung, as a waiting call would).
//  - tasks/result: the tool's own answer (render-answer.ts, batch-answer.ts, snapshot-answer.ts); the SDK waits for
//    the end first.
//  - tasks/list: the live or last render of each of the caller's projects, newest project first, a page at a time
//    (GET /api/projects, its cursor as the task cursor). Batches and snapshots are not listed: no REST route lists
//    them, and a snapshot lasts seconds.
//  - tasks/cancel: DELETE …/render (or …/batch) while the task is that project's running render (or batch); DELETE
//    …/snapshot/{id} for a snapshot.
//  - a call the REST API refused is a failed task whose id holds the refusal (task-id.ts): its result is the tool
//    error a plain call gets.
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { isInProgress, type BatchState, type RenderOrNone, type RenderState } from "../../core/protocol/render-state.ts";
import { batchAnswer, batchPath } from "./batch-answer.ts";
import { renderAnswer, renderPath } from "./render-answer.ts";
import { apiPath, RestError, type RestClient } from "./rest-client.ts";
import { taskRefOf, type Refusal, type TaskRef } from "./task-id.ts";
import { batchTask, refusedTask, renderTask, snapshotTask } from "./task-status.ts";
import type { SnapshotJob } from "../checks/shapes.ts";
import { snapshotJobAnswer } from "./snapshot-answer.ts";
import { errorResult } from "./tool-result.ts";

/** Projects per tasks/list page. */
export const TASK_LIST_PAGE = 50;

type Found =
  | { kind: "render"; state: RenderState }
  | { kind: "batch"; state: BatchState }
  | { kind: "snapshot"; slug: string; state: SnapshotJob }
  | { kind: "refused"; refusal: Refusal };

/** null for a REST 404 (a missing or another user's render or project). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof RestError && err.status === 404) return null;
    throw err;
  }
}

async function find(rest: RestClient, ref: TaskRef | null): Promise<Found | null> {
  if (!ref) return null;
  if (ref.kind === "refused") return ref;
  if (ref.kind === "render") {
    const state = await orNull(rest.json<RenderState>({ path: apiPath("/api/renders", ref.renderId) }));
    return state && { kind: "render", state };
  }
  if (ref.kind === "snapshot") {
    const state = await orNull(rest.json<SnapshotJob>({ path: apiPath("/api/projects", ref.slug, "snapshot", ref.jobId) }));
    return state && { kind: "snapshot", slug: ref.slug, state };
  }
  const state = await orNull(rest.json<BatchState | { status: "none" }>({ path: batchPath(ref.slug) }));
  return state && "id" in state && state.id === ref.batchId ? { kind: "batch", state } : null;
}

function taskOf(found: Found, now: number, snapshotTtlMs: number): Task {
  if (found.kind === "refused") return refusedTask(found.refusal);
  if (found.kind === "snapshot") return snapshotTask(found.state, found.slug, snapshotTtlMs, now);
  return found.kind === "render" ? renderTask(found.state, now) : batchTask(found.state, now);
}

const notStored = (what: string) => new Error(`${what}: a studio task is a render, batch or snapshot, kept by the studio itself`);

/** `snapshotTtlMs`: how long a snapshot's task can be read (the queue keeps ended jobs that long). */
export function studioTaskStore(rest: RestClient, snapshotTtlMs: number): TaskStore {
  return {
    async createTask(_params: CreateTaskOptions): Promise<Task> {
      throw notStored("createTask");
    },
    async storeTaskResult(): Promise<void> {
      throw notStored("storeTaskResult");
    },
    async getTask(taskId: string): Promise<Task | null> {
      const found = await find(rest, taskRefOf(taskId));
      return found && taskOf(found, Date.now(), snapshotTtlMs);
    },
    async getTaskResult(taskId: string): Promise<Result> {
      const found = await find(rest, taskRefOf(taskId));
      if (!found) throw new Error(`no task ${taskId}`);
      if (found.kind === "refused") return errorResult(new RestError(found.refusal.status, found.refusal.body));
      if (found.kind === "batch") return batchAnswer(rest, found.state.slug, found.state);
      if (found.kind === "snapshot") return snapshotJobAnswer(rest, found.slug, found.state);
      return renderAnswer(rest, found.state.slug, found.state, isInProgress(found.state.status));
    },
    async updateTaskStatus(taskId: string, status: Task["status"]): Promise<void> {
      if (status !== "cancelled") throw new Error(`a task's status follows its render: only cancelling is possible, not ${status}`);
      const found = await find(rest, taskRefOf(taskId));
      if (!found) throw new Error(`no task ${taskId}`);
      // A refused call started nothing (and is failed, which the SDK refuses to cancel before asking here).
      if (found.kind === "refused") return;
      if (found.kind === "snapshot") {
        // One that ended meanwhile (409) keeps its end: there is nothing left to cancel.
        await rest.json({ method: "DELETE", path: apiPath("/api/projects", found.slug, "snapshot", found.state.id) }).catch((err: unknown) => {
          if (!(err instanceof RestError && err.status === 409)) throw err;
        });
        return;
      }
      const { slug, id } = found.state;
      if (found.kind === "batch") {
        await rest.json({ method: "DELETE", path: batchPath(slug) });
        return;
      }
      // DELETE …/render stops the project's current render: only when that is this task's render.
      const current = await rest.json<RenderOrNone>({ path: renderPath(slug) });
      if (current.id === id && isInProgress(current.status)) await rest.json({ method: "DELETE", path: renderPath(slug) });
    },
    async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
      const page = await rest.json<{ projects: Array<{ render: RenderState | null }>; next: string | null }>({
        path: "/api/projects",
        query: { limit: TASK_LIST_PAGE, next: cursor },
      });
      const now = Date.now();
      const tasks = page.projects.flatMap((p) => (p.render ? [renderTask(p.render, now)] : []));
      return page.next ? { tasks, nextCursor: page.next } : { tasks };
    },
  };
}
