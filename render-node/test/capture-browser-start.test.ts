// What a capture browser starts with, in real Chromium: in either capture mode, after the composition has loaded,
// exactly one page and one renderer process (no start-up about:blank tab beside the capture page), and nothing of a
// fresh profile written to its profile folder (off the record: cache, cookies and storage stay in memory).
import { readdirSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openComposition, type OpenComposition } from "../src/browser/open-composition.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { makeTestProject } from "./make-test-project.ts";

const binaries = await resolveBinaries();
const projectDir = await makeTestProject(binaries.ffmpeg);
const opened: OpenComposition[] = [];
afterAll(async () => {
  for (const one of opened) await one.close();
});

/** The command lines of the processes in Chromium's process group (puppeteer starts it detached, as its leader). */
function groupCommandLines(leader: number): string[] {
  const lines: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the command name: state ppid pgrp ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp === leader) lines.push(readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" "));
    } catch {
      // gone since the listing
    }
  }
  return lines;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe.each([
  { mode: "beginFrame", preferBeginFrame: true },
  { mode: "screenshot", preferBeginFrame: false },
])("a $mode capture browser", ({ mode, preferBeginFrame }) => {
  it("has one page in one renderer process and writes no profile data", async () => {
    const lines: string[] = [];
    const one = await openComposition({ projectDir, chrome: binaries.chrome, preferBeginFrame, signal: new AbortController().signal, onLine: (l) => lines.push(l) });
    opened.push(one);
    const { capture } = one;
    expect(capture.mode).toBe(mode);
    expect(one.info.compositionId).toBe("main");
    expect(lines.filter((l) => l.includes("falling back"))).toEqual([]);

    const pages = capture.browser.targets().filter((t) => t.type() === "page");
    expect(pages.map((t) => t.url())).toEqual([capture.page.url()]);
    expect(capture.page.url()).toContain("/index.html");

    const commands = groupCommandLines(capture.pid!);
    expect(commands.length).toBeGreaterThan(1);
    expect(commands.filter((c) => c.includes("--type=renderer"))).toHaveLength(1);

    const profileArg = commands.join(" ").match(/--user-data-dir=(\S+)/);
    expect(profileArg).not.toBeNull();
    // A fresh profile's caches, cookies, storage and databases all live under Default/.
    const written = await filesUnder(profileArg![1]!);
    expect(written.filter((f) => f.startsWith("Default/"))).toEqual([]);
  });
});
