// A local project folder as the CLI pushes it. A HyperFrames project folder works as it is: hyperframes.json names
// the project (else the folder's name does), and every file is pushed with its relative path, leaving out what is
// never part of a composition (dot files and folders, node_modules, and the studio's own snapshots/ and renders/).
//
// Only regular files inside the folder are pushed. A cloned project is someone else's folder: a symbolic link in it
// (assets/x -> ~/.ssh) would upload what it points at into a project that can be shared, and a link back up
// (loop -> ..) would never end, so links are never followed, only named as skipped. FIFOs, sockets and devices
// are skipped too (reading a FIFO waits forever), and a folder reached twice (a bind mount of a parent) is walked
// once.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { parseJson } from "../../core/parse-text.ts";

export { slugify } from "../../core/paths/slugify.ts";

const SKIP_DIRS = new Set(["node_modules", "snapshots", "renders"]);

export interface ProjectFolder {
  /** Project-relative paths with "/", sorted by folder. */
  files: string[];
  /** One line for each entry left out that a person might have expected to be pushed. */
  skipped: string[];
}

/** What kind of non-regular entry this is, in words, or null for a regular file or folder. */
function describeSpecial(stat: Stats): string | null {
  if (stat.isSymbolicLink()) return "a symbolic link (studio push uploads only regular files inside the project folder)";
  if (stat.isFIFO()) return "a named pipe (FIFO), not a regular file";
  if (stat.isSocket()) return "a socket, not a regular file";
  if (stat.isBlockDevice() || stat.isCharacterDevice()) return "a device, not a regular file";
  return null;
}

export function projectFiles(root: string): ProjectFolder {
  const files: string[] = [];
  const skipped: string[] = [];
  const walked = new Set<string>();
  const relativePath = (full: string) => relative(root, full).split(sep).join("/");
  const walk = (dir: string) => {
    // The folder's identity, not its path: a bind mount or a loop in the file system shows the same folder again.
    const { dev, ino } = statSync(dir);
    if (walked.has(`${dev}:${ino}`)) {
      skipped.push(`skipped ${relativePath(dir)}/: the same folder as one already pushed (a bind mount or a loop)`);
      return;
    }
    walked.add(`${dev}:${ino}`);
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(".")) continue;
      const full = join(dir, name);
      const stat = lstatSync(full);
      const special = describeSpecial(stat);
      if (special) skipped.push(`skipped ${relativePath(full)}: ${special}`);
      else if (stat.isDirectory()) {
        if (!(dir === root && SKIP_DIRS.has(name)) && name !== "node_modules") walk(full);
      } else if (stat.isFile()) files.push(relativePath(full));
    }
  };
  walk(root);
  return { files, skipped };
}

/**
 * A pushed file's bytes. Opened without following a link and without waiting on a pipe, and refused unless it is
 * still a regular file: the folder may have changed since it was listed.
 */
export function readProjectFile(root: string, path: string): Buffer {
  const fd = openSync(join(root, path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is no longer a regular file`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The project name: hyperframes.json's name (or meta.json's), else the folder's name. */
export function projectName(root: string): string {
  for (const file of ["hyperframes.json", "meta.json"]) {
    const name = nameIn(root, file);
    if (name) return name;
  }
  return basename(root);
}

/** The `name` a project file gives, or null when it gives none: not there, not a regular file, not JSON, no name. */
function nameIn(root: string, file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readProjectFile(root, file);
  } catch (error) {
    // Not there, a link (O_NOFOLLOW), or a folder: that file names nothing, and the next one is asked.
    if (isAbsent(error)) return null;
    throw error;
  }
  const json = parseJson(bytes.toString("utf8"));
  if (!json.ok || typeof json.value !== "object" || json.value === null) return null;
  const name = (json.value as { name?: unknown }).name;
  return typeof name === "string" && name.trim() ? name.trim() : null;
}

const ABSENT = new Set(["ENOENT", "ELOOP", "ENOTDIR", "EISDIR", "ENXIO"]);
const isAbsent = (error: unknown) => ABSENT.has((error as NodeJS.ErrnoException).code ?? "") || (error instanceof Error && error.message.endsWith("is no longer a regular file"));
