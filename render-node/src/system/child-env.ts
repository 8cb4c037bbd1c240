// The environment of every process the node starts (Chromium, ffmpeg, ffprobe): an allow-list of what they need to
// run on Linux, never the node's own. The node's environment holds its NODE_KEY and whatever else its operator put
// there; Chromium runs compositions people wrote, and a process's environment is readable to it and to anything it
// starts (/proc/self/environ), so a browser exploit must find no key there. Everything here is a path, a locale or
// a time zone.

/** Variables a child gets by name: where to find programs, libraries, fonts and a writable home. */
const NAMES = new Set([
  "PATH",
  "HOME",
  "TMPDIR",
  "TZ",
  "LANG",
  "LANGUAGE",
  // @sparticuz/chromium puts its own libraries here (and FONTCONFIG_PATH, HOME) on the node's env when unpacked.
  "LD_LIBRARY_PATH",
  "XDG_CACHE_HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_DATA_DIRS",
]);

/** Variables a child gets by prefix: locale categories and fontconfig's own settings. */
const PREFIXES = ["LC_", "FONTCONFIG_"];

/** Whether a variable of the node's environment may pass to a child. */
export function passesToChild(name: string): boolean {
  return NAMES.has(name) || PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** A child's whole environment: the allowed variables of `from` (the node's), then `extra` (the launch's own). */
export function childEnv(extra: Record<string, string> = {}, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && passesToChild(name)) env[name] = value;
  }
  return { ...env, ...extra };
}
