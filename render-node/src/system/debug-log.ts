// What the node goes on without, said at debug level: cleanup of a process, socket or folder that may already be
// gone, a probe of the machine that may not be there. Nothing of it belongs in a render's log (the job's lines go to
// the Worker), so it is written only when Node's own debug switch names it: NODE_DEBUG=studio-node (Node reads that
// variable itself; it is no setting of the node's configuration).
import { debuglog } from "node:util";

const debug = debuglog("studio-node");

/** Why a failure is let go, and the failure. */
export function logDebug(why: string, error?: unknown): void {
  if (!debug.enabled) return;
  debug("%s%s", why, error === undefined ? "" : `: ${error instanceof Error ? error.message : String(error)}`);
}

/** Whether a file-system error says the path is not there (the one failure a "read it if it exists" expects). */
export function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
