// The served docs are Markdown files (worker/docs/text/*.md) filled by one function (worker/docs/fill.ts): every
// placeholder any text uses has a value where it is served, no "{{" reaches a reader of /api/docs (visitor, token
// or cookie holder), /llms.txt, /skill.md or the MCP prompt, and each keeps its sections.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { splitAtHeadings } from "../../core/docs/sections.ts";
import { DOC_TEXT_FILES, DOC_TEXTS_PATH } from "../../core/docs/doc-text-files.ts";
import { loadDocTexts } from "../../worker/docs/doc-text.ts";
import { fillDocs, PLACEHOLDERS, placeholdersIn } from "../../worker/docs/fill.ts";
import { composeVideoGuide } from "../../worker/mcp/prompts.ts";
import { BASE, signIn } from "./helpers.ts";

const served = async (path: string, headers: Record<string, string> = {}) => {
  const res = await SELF.fetch(`${BASE}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return res.text();
};

const headings = (text: string, level: number) =>
  splitAtHeadings(text, level)
    .map((p) => p.heading)
    .filter((h) => h?.level === level)
    .map((h) => h?.text);

describe("docs text and its placeholders", () => {
  it("uses only known placeholders, and every known one somewhere", async () => {
    const DOC_TEXTS = await loadDocTexts(env);
    const used = new Set(Object.values(DOC_TEXTS).flatMap(placeholdersIn));
    expect([...used].filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name))).toEqual([]);
    expect(PLACEHOLDERS.filter((name) => !used.has(name) && !["EXAMPLE_ID", "STARTER", "BROKEN_FINDINGS", "SKILL_SECTIONS"].includes(name))).toEqual([]);
    expect(placeholdersIn(DOC_TEXTS.skill)).toEqual(expect.arrayContaining(["EXAMPLE_ID", "STARTER", "BROKEN_FINDINGS", "SKILL_SECTIONS"]));
  });

  it("refuses to fill a placeholder it has no value for, and fills in one pass", () => {
    expect(() => fillDocs("a {{NOPE}} b", { BASE_URL: "x" })).toThrow("docs placeholder {{NOPE}} has no value");
    expect(() => fillDocs("{{BASE_URL}} {{TOKEN}}", { BASE_URL: "x" })).toThrow("{{TOKEN}}");
    expect(fillDocs("{{BASE_URL}}/{{TOKEN}}", { BASE_URL: "{{TOKEN}}", TOKEN: "t" })).toBe("{{TOKEN}}/t");
  });

  it("leaves no placeholder in any served doc, for a visitor, a token holder and a cookie holder", async () => {
    const s = await signIn("docs-text");
    const docs = [
      await served("/api/docs"),
      await served("/api/docs", { Authorization: `Bearer ${s.token}` }),
      await served("/api/docs", { Cookie: s.cookie }),
      await served("/llms.txt"),
      await served("/skill.md"),
      composeVideoGuide(await loadDocTexts(env)),
    ];
    for (const text of docs) {
      expect(text.length).toBeGreaterThan(1000);
      expect(text).not.toContain("{{");
    }
  });

  it("reads the texts from the Worker's assets, where the build put them, and never serves them raw", async () => {
    const texts = await loadDocTexts(env);
    for (const [name, file] of Object.entries(DOC_TEXT_FILES)) {
      expect(texts[name as keyof typeof texts].length, file).toBeGreaterThan(500);
      const raw = await SELF.fetch(`${BASE}${DOC_TEXTS_PATH}/${file}`);
      expect(raw.status, file).toBe(404);
      expect(await raw.text()).not.toContain("{{");
    }
    // What the Worker read is the file in the repository, as the build copied it.
    expect(texts.llms).toContain("{{BASE_URL}}");
  });

  it("keeps every section of the reference, the skill and llms.txt", async () => {
    const docs = await served("/api/docs");
    expect(headings(docs, 1)).toEqual(["Studio API reference", "Error codes", "Methods, query values, pages and retries", "For agents", "Security model"]);
    expect(headings(docs, 2)).toEqual(expect.arrayContaining(["Conventions", "Authentication", "Projects", "Files", "Lint", "Check", "Snapshots", "Render", "Render nodes", "Composition rules", "MCP server", "Webhooks", "Who can see and do what", "Limits"]));
    expect(docs).toContain("IDEA BOARD");
    const skill = await served("/skill.md");
    expect(headings(skill, 2)).toEqual(expect.arrayContaining(["The loop", "Composition rules", "Lint rules", "MCP server", "Webhooks", "Reference: How a composition runs", "Reference: Render"]));
    expect(headings(await served("/llms.txt"), 2)).toEqual(["Docs", "Tools", "Optional"]);
  });

  it("serves each continued example as the lines it is written in, never joined into one", async () => {
    const docs = await served("/api/docs");
    const lines = docs.split("\n");
    expect(lines.filter((l) => /^\s+curl .*\\$/.test(l)).length).toBeGreaterThan(3);
    for (const [i, line] of lines.entries()) if (/^\s+curl .*\\$/.test(line)) expect(lines[i + 1], line).toMatch(/^\s+-/);
    expect(lines.filter((l) => /^\s+curl .*\S {4,}-H /.test(l))).toEqual([]);
  });
});
