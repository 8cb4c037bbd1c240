// Tells a project's open pages that its files changed: the ProjectRoom broadcasts a `files` event on the project's
// event stream (GET /api/projects/:slug/events), so the dashboard reloads its file list without polling.
import type { Env } from "../../env.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import type { ProjectRef } from "../../storage/keys.ts";
import { logEvent } from "../../http/log.ts";

export interface FilesChange {
  written?: string[];
  deleted?: string[];
}

/** Best effort: the write already happened, and a page that misses the event still shows it on its next load. */
export async function announceFiles(env: Env, ref: ProjectRef, change: FilesChange): Promise<void> {
  try {
    await roomOf(env, ref).filesChanged(change);
  } catch (error) {
    // An unreachable room must not turn a successful write into an error: the page catches up on its next load.
    logEvent("warn", "files.announce_failed", { error, answer: "write kept" });
  }
}
