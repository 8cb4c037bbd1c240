// /llms.txt and the agent skill (/skill.md): generated from the same sources as GET /api/docs, so every
// composition rule, every lint rule and the reference sections they carry are the served docs' own words.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/starter.ts";
import { LINT_RULES, lintProject } from "../../core/lint/index.ts";
import { COMPOSITION_RULES } from "../../worker/docs/composition-rules.ts";
import { sectionOf } from "../../core/docs/sections.ts";
import { SKILL_REFERENCE_SECTIONS } from "../../worker/docs/skill.ts";
import { BASE } from "./helpers.ts";

const text = async (path: string) => {
  const res = await SELF.fetch(`${BASE}${path}`);
  expect(res.status, path).toBe(200);
  return { res, body: await res.text() };
};

/** Whitespace-insensitive, since the docs wrap lines. */
const flat = (s: string) => s.replace(/\s+/g, " ");

describe("the agent skill and llms.txt", () => {
  it("serve every composition rule, word for word, in the skill, llms.txt and the API docs", async () => {
    const { res, body: skill } = await text("/skill.md");
    expect(res.headers.get("Content-Type")).toMatch(/^text\/markdown/);
    const { body: llms } = await text("/llms.txt");
    const { body: docs } = await text("/api/docs");
    expect(COMPOSITION_RULES.length).toBeGreaterThan(5);
    for (const rule of COMPOSITION_RULES) {
      expect(skill).toContain(rule);
      expect(llms).toContain(rule);
      expect(docs).toContain(rule);
    }
    for (const word of ["data-composition-id", "data-duration", "window.__timelines", "data-start", "data-track-index"]) {
      expect(skill).toContain(word);
    }
  });

  it("carries the reference sections of /api/docs verbatim, every lint rule, and the whole loop", async () => {
    const { body: skill } = await text("/skill.md");
    const { body: docs } = await text("/api/docs");
    for (const heading of SKILL_REFERENCE_SECTIONS) {
      const served = sectionOf(docs.replaceAll(/Bearer stu_\S+|Bearer <TOKEN>/g, "Bearer $STUDIO_TOKEN").replaceAll("?token=<TOKEN>", "?token=$STUDIO_TOKEN"), heading);
      expect(flat(skill)).toContain(flat(served));
    }
    for (const rule of LINT_RULES) expect(skill).toContain(rule.code);
    for (const step of ["/lint", "/check", "/snapshot", "/render", "create_project", "write_file", "snapshot", "get_render"]) expect(skill).toContain(step);
    expect(skill).not.toContain("{{");
    expect(skill).toMatch(/^---\nname: studio-video\ndescription: .+\n---\n/);
    expect(skill).toContain(`${BASE}/mcp`);
    const { body: llms } = await text("/llms.txt");
    expect(llms).toMatch(/^# Studio\n\n> /);
    for (const link of ["/skill.md", "/api/docs", "/api/openapi.json", "/mcp"]) expect(llms).toContain(`(${BASE}${link})`);
  });

  it("shows a starter that lints clean, and the broken example's findings as the linter reports them today", async () => {
    const { body: skill } = await text("/skill.md");
    const starter = starterComposition({ compositionId: "hello-studio", title: "Hello, Studio", duration: 4 });
    expect(skill).toContain(starter.trimEnd());
    expect(lintProject({ files: [{ path: "index.html", size: starter.length, text: starter }] }).errorCount).toBe(0);
    const broken = starter.replace("gsap.timeline({ paused: true })", "gsap.timeline()").replace("const tl =", "const drift = Math.random() * 100;\n  const tl =");
    const errors = lintProject({ files: [{ path: "index.html", size: broken.length, text: broken }] }).findings.filter((f) => f.severity === "error");
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const finding of errors) expect(skill).toContain(finding.message);
  });

  it("needs no token and carries none", async () => {
    const { body: skill } = await text("/skill.md");
    expect(skill).not.toMatch(/stu_[A-Za-z0-9_-]{20,}/);
  });
});
