// A local project folder as the CLI pushes it. A HyperFrames project folder works as it is: hyperframes.json names
// the project (else the folder's name does), and every file is pushed with its relative path, leaving out what is
// never part of a composition (dot files and folders, node_modules, and the studio's own snapshots/ and renders/).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";

export { slugify } from "../../core/paths/slugify.ts";

const SKIP_DIRS = new Set(["node_modules", "snapshots", "renders"]);

export function projectFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(".")) continue;
      const full = join(dir, name);
      const stat = statSync(full);
      if (stat.isDirectory()) {
        if (!(dir === root && SKIP_DIRS.has(name)) && name !== "node_modules") walk(full);
      } else if (stat.isFile()) {
        out.push(relative(root, full).split(sep).join("/"));
      }
    }
  };
  walk(root);
  return out;
}

/** The project name: hyperframes.json's name (or meta.json's), else the folder's name. */
export function projectName(root: string): string {
  for (const file of ["hyperframes.json", "meta.json"]) {
    try {
      const name = (JSON.parse(readFileSync(join(root, file), "utf8")) as { name?: unknown }).name;
      if (typeof name === "string" && name.trim()) return name.trim();
    } catch {
      // not there, or not JSON: try the next
    }
  }
  return basename(root);
}
