// A local script that is a library the author copied in (three.min.js, a shader or effects library), not
// composition code. HyperFrames lints only the author's scripts: it skips *.min.js and files under vendor/ or
// node_modules/ (its isAuthoredScript). Here also a file with a library banner (`/*!` or @license at its top) or a
// minified one (20 KB or more on lines averaging 300+ characters). Such a file is not held to the composition rules
// (requestAnimationFrame, Date.now, timeline ids...): whatever they find there is a warning naming the file.
// Pure.

const LIBRARY_FOLDERS = new Set(["vendor", "vendors", "node_modules", "third_party", "third-party"]);

/** Why `path` (with its text) reads as a library, or null for composition code. */
export function vendoredReason(path: string, text: string | null): string | null {
  const lower = path.toLowerCase();
  if (lower.endsWith(".min.js") || lower.endsWith("-min.js")) return "a minified .min.js file";
  const folder = lower.split("/").slice(0, -1).find((segment) => LIBRARY_FOLDERS.has(segment));
  if (folder) return `under ${folder}/`;
  if (text === null) return null;
  const head = text.slice(0, 2000);
  if (/^\s*\/\*!/.test(head) || /@license\b/i.test(head)) return "it opens with a library license banner";
  const lines = text.split("\n").length;
  if (text.length >= 20_000 && text.length / lines >= 300) return "it is minified";
  return null;
}
