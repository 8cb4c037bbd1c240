// Whether a path names a regular file (false for a folder, a missing path or one that cannot be read), or one this
// process may execute.
import { accessSync, constants } from "node:fs";
import { stat } from "node:fs/promises";

export const isFile = (path: string): Promise<boolean> => stat(path).then((info) => info.isFile(), () => false);

/** Whether `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
