import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LINT_RULES } from "../../core/lint/index.ts";
import { api, BASE, json, signIn } from "./helpers.ts";

describe("API docs", () => {
  it("without a token shows placeholders; with one, the examples carry the caller's token and base URL", async () => {
    const anon = await (await SELF.fetch(`${BASE}/api/docs`)).text();
    expect(anon).toContain(`curl -H "Authorization: Bearer <TOKEN>" ${BASE}/api/me`);
    expect(anon).not.toMatch(/stu_[A-Za-z0-9_-]{20,}/);
    const s = await signIn("docs-reader");
    const mine = await api(s.token, "GET", "/api/docs");
    expect(mine.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const text = await mine.text();
    expect(text).toContain(`curl -H "Authorization: Bearer ${s.token}" ${BASE}/api/me`);
    expect(text).not.toContain("{{");
  });

  it("documents every endpoint path, every event, the in-progress statuses and every lint rule", async () => {
    const text = await (await SELF.fetch(`${BASE}/api/docs`)).text();
    for (const path of ["/api/health", "/api/me/token/rotate", "/api/projects/:slug/share", "http://content.studio.test/c/<capability>/", "/api/projects/:slug/files/<path>", "/api/projects/:slug/render/events", "/api/renders", "/renders/<filename>", "/api/node/jobs/claim"]) {
      expect(text).toContain(path);
    }
    for (const word of ["snapshot", "start", "line", "end", '"queued"', '"rendering"', "createdBy", "mtime"]) expect(text).toContain(word);
    for (const rule of LINT_RULES) expect(text).toContain(rule.code);
  });

  it("lists each lint rule's HyperFrames counterpart and every deliberate difference, from the rule table", async () => {
    const text = (await (await SELF.fetch(`${BASE}/api/docs`)).text()).replace(/\s+/g, " ");
    for (const rule of LINT_RULES) {
      expect(text).toContain(`${rule.code} ${rule.severity} `);
      expect(text).toContain(rule.hyperframes.length > 0 ? `HyperFrames: ${rule.hyperframes.join(", ")}` : "HyperFrames: none.");
      if (rule.difference) expect(text).toContain(rule.difference);
    }
    // The four rules issue 11 names carry HyperFrames' own codes.
    for (const code of ["requestanimationframe_in_composition", "gsap_infinite_repeat", "gsap_non_transform_motion", "gsap_animates_clip_element"]) {
      expect(text).toContain(`HyperFrames: ${code}`);
    }
  });

  it("serves an OpenAPI 3.1 document whose request schemas are the validating zod schemas", async () => {
    const doc = await json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>> }>(
      await SELF.fetch(`${BASE}/api/openapi.json`),
    );
    expect(doc.openapi).toBe("3.1.0");
    const render = doc.paths["/api/projects/{slug}/render"]?.post?.requestBody?.content["application/json"]?.schema as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(render.properties.format?.enum).toEqual(["mp4", "webm", "mov", "gif", "png-sequence"]);
    expect(render.properties.quality?.enum).toEqual(["draft", "standard", "high"]);
    const create = doc.paths["/api/projects"]?.post?.requestBody?.content["application/json"]?.schema as { required: string[] };
    expect(create.required).toEqual(["name"]);
  });
});

describe("security model", () => {
  it("is in the docs: roles, the content origin, what a composition may do, and the limits", async () => {
    const text = await (await SELF.fetch(`${BASE}/api/docs`)).text();
    expect(text).toContain("# Security model");
    for (const heading of ["## Who can see and do what", "## Where user content is served from", "## What a composition may and may not do on a render node", "## Limits"]) {
      expect(text).toContain(heading);
    }
    // The origins are the configured ones, filled in.
    expect(text).toContain("from the content origin, http://content.studio.test,");
    expect(text).not.toContain("{{");
  });
});

describe("idea-board docs", () => {
  it("include the idea-board section and its operations", async () => {
    const text = await (await SELF.fetch(`${BASE}/api/docs`)).text();
    for (const path of ["/api/ideas/check", "/api/enrichments/:id/vote", "/api/bots", "/api/research"]) expect(text).toContain(path);
    const doc = await json<{ paths: Record<string, unknown> }>(await SELF.fetch(`${BASE}/api/openapi.json`));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/ideas", "/api/ideas/check", "/api/research/{slug}"]));
  });
});
