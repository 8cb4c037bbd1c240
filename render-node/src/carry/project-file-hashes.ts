// The content hash of every file of a project but its compositions' HTML, for the carry key (carry-key.ts). The
// HTML is left out on purpose: what it puts on the page is in each frame's fingerprint (the DOM it builds) and in
// the page's load key (its scripts), so an edit of one title does not change the key. Every other file (images,
// videos, fonts, scripts, stylesheets, data) is in it by content: any change to one carries nothing.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";

const COMPOSITION = /\.html?$/i;

/** Relative path (with "/") → hex SHA-256, for every file under `projectDir` but *.html and *.htm. */
export async function projectFileHashes(projectDir: string): Promise<Record<string, string>> {
  const entries = await readdir(projectDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !COMPOSITION.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
  const hashes: Record<string, string> = {};
  for (const file of files.sort()) {
    hashes[relative(projectDir, file).split(sep).join("/")] = createHash("sha256").update(await readFile(file)).digest("hex");
  }
  return hashes;
}
