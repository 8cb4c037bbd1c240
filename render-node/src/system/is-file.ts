// Whether a path names a regular file (false for a folder, a missing path or one that cannot be read).
import { stat } from "node:fs/promises";

export const isFile = (path: string): Promise<boolean> => stat(path).then((info) => info.isFile(), () => false);
