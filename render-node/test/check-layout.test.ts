// check in real Chromium: the starter composition a new project gets passes with no findings, and text cut off by
// an ancestor's overflow (nowrap, no ellipsis, several levels up) is reported while intended clipping is not.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { lintProject } from "../../core/lint/lint-project.ts";
import { checkComposition } from "../src/check-composition.ts";
import { resolveBinaries } from "../src/resolve-binaries.ts";

const binaries = await resolveBinaries();
const signal = new AbortController().signal;
const noop = () => {};

async function projectWith(html: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "check-layout-"));
  await writeFile(join(dir, "index.html"), html);
  return dir;
}

describe("the starter composition", () => {
  it.each([
    ["a short title", "Launch day"],
    ["the longest one-line name", "Quarterly results for the whole team"],
    ["a name that wraps to two lines", "A much longer project name that an agent might give its very first video"],
  ])("passes lint and the browser check with no findings, with %s", async (_label, title) => {
    const html = starterComposition({ compositionId: "my-first-video", title });
    const lint = lintProject({ files: [{ path: "index.html", size: html.length, text: html }] }, { verbose: false });
    expect(lint.findings).toEqual([]);
    const report = await checkComposition({ projectDir: await projectWith(html), chrome: binaries.chrome, options: {}, signal, onLine: noop });
    expect(report.runtime).toEqual([]);
    expect(report.layout).toEqual([]);
    expect(report.times).toHaveLength(9);
  });
});
