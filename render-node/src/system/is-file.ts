// Whether a path names a regular file (false for a folder, a missing path or one that cannot be read), or one this
// process may execute.
import { accessSync, constants } from "node:fs";
import { stat } from "node:fs/promises";
import { logDebug } from "./debug-log.ts";

export const isFile = (path: string): Promise<boolean> => stat(path).then((info) => info.isFile(), (error: unknown) => {
  // Missing or unreadable: not a file this node can use.
  logDebug(`${path} cannot be read`, error);
  return false;
});

/** Whether `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch (error) {
    // Missing, or not executable by this process: either way not a binary this node can use.
    logDebug(`${path} is not executable here`, error);
    return false;
  }
}
