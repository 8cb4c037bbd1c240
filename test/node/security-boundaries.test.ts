// The served security model's "Trust boundaries" section (worker/docs/text/security.md) names, for every boundary,
// the attack tests that guard it. A boundary without one, or a named test that was renamed or removed, fails here:
// the reader of the docs is never pointed at a guard that does not exist.
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sectionOf, splitAtHeadings } from "../../core/docs/sections.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

/** The boundaries the security model must list (issue 31), each as its heading starts. */
const REQUIRED = ["Client → Worker", "Page → render node", "Render node → Worker", "Worker and node → ffmpeg and Chromium"];

async function boundaries(): Promise<{ title: string; body: string }[]> {
  const text = await readFile(join(ROOT, "worker/docs/text/security.md"), "utf8");
  return splitAtHeadings(sectionOf(text, "Trust boundaries"), 3).flatMap((part) =>
    part.heading?.level === 3 ? [{ title: part.heading.text, body: part.lines.join("\n") }] : [],
  );
}

describe("the security model's trust boundaries", () => {
  it("lists every boundary the studio has, each saying what crosses it, how it is checked and what guards it", async () => {
    const listed = await boundaries();
    for (const name of REQUIRED) expect(listed.map((b) => b.title)).toContain(name);
    for (const { title, body } of listed) {
      for (const part of ["Crosses:", "Checked:", "Guarded by:"]) expect(body, `${title}: ${part}`).toContain(part);
    }
  });

  it("names only attack tests that exist, at least one for each boundary", async () => {
    for (const { title, body } of await boundaries()) {
      const guards = body.slice(body.indexOf("Guarded by:"));
      const files = [...guards.matchAll(/`([\w./-]+\.test\.ts)`/g)].map((m) => m[1] ?? "");
      expect(files.length, `${title} names no test`).toBeGreaterThan(0);
      for (const file of files) await expect(access(join(ROOT, file)).then(() => file), `${title}: ${file}`).resolves.toBe(file);
    }
  });
});
