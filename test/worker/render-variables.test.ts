// Render-time variables at the API: their shape and limits are a 400 naming the limit; strictVariables refuses an
// undeclared key or a wrong type with a 400 naming each key, judged from the project's own composition file,
// before anything is queued; a render that passes carries its variables to the node's job.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { starterComposition } from "../../core/composition/index.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, registerNode } from "./node-helpers.ts";

const DECLARED = `data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Hello"},{"id":"count","type":"number","label":"Count","default":3},{"id":"mood","type":"enum","label":"Mood","default":"calm","options":[{"value":"calm"},{"value":"loud"}]}]'`;

async function projectWithVariables(name: string) {
  const s = await signIn(name);
  const { slug } = await createProject(s.token, name);
  const html = starterComposition({ compositionId: slug, title: "Vars", duration: 2 }).replace("<html", `<html ${DECLARED}`);
  expect((await api(s.token, "PUT", `/api/projects/${slug}/files/index.html`, html)).status).toBe(200);
  return { s, slug };
}

async function jobCount(userId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n ?? 0;
}

describe("render variables", () => {
  it("refuses a malformed or oversized variables object with 400 naming the limit", async () => {
    const { s, slug } = await projectWithVariables("vars-shape");
    const cases: [unknown, string][] = [
      [{ variables: ["title"] }, 'invalid variables: give a JSON object keyed by variable id, such as {"title":"Q4 Report"}'],
      [{ variables: "title=Q4" }, 'invalid variables: give a JSON object keyed by variable id, such as {"title":"Q4 Report"}'],
      [{ variables: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) }, "invalid variables: 101 keys; at most 100"],
      [{ variables: { title: "x".repeat(40_000) } }, "invalid variables: 40012 bytes as JSON; at most 32768"],
      [{ variables: { a: { b: { c: { d: { e: { f: 1 } } } } } } }, "invalid variables: nested deeper than 5 levels"],
      [{ strictVariables: "yes" }, 'invalid strictVariables: "yes"; allowed values: true, false'],
    ];
    for (const [body, error] of cases) {
      const res = await api(s.token, "POST", `/api/projects/${slug}/render`, body);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ error, code: "bad_request" });
    }
    expect(await jobCount(s.userId)).toBe(0);
  });

  it("strictVariables: an undeclared key, a wrong type or an enum value outside its options is a 400 naming each key; nothing is queued", async () => {
    await registerNode();
    const { s, slug } = await projectWithVariables("vars-strict");
    const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { strictVariables: true, variables: { title: "Q4", subtitle: "x", count: "three", mood: "angry" } });
    expect(res.status).toBe(400);
    const { error, code } = await json<{ error: string; code: string }>(res);
    expect(code).toBe("bad_request");
    expect(error).toMatch(/^invalid variables: strictVariables: /);
    expect(error).toContain('variable "subtitle" is not declared in data-composition-variables of index.html; declared: title, count, mood');
    expect(error).toContain('variable "count" expects number (declared in index.html), got string');
    expect(error).toContain('variable "mood" must be one of "calm", "loud" (declared in index.html), got "angry"');
    expect(error).not.toContain('"title"');
    expect(await jobCount(s.userId)).toBe(0);
  });

  it("declared values pass; without strictVariables an undeclared key is queued (the node warns); the job carries the variables", async () => {
    const key = await registerNode();
    const { s, slug } = await projectWithVariables("vars-pass");
    const variables = { title: "Q4 Report", count: 7, mood: "loud", extra: true };
    const refused = await api(s.token, "POST", `/api/projects/${slug}/render`, { strictVariables: true, variables });
    expect(refused.status).toBe(400);
    const started = await api(s.token, "POST", `/api/projects/${slug}/render`, { variables });
    expect(started.status).toBe(202);
    const job = await claim(key);
    expect(job).toMatchObject({ kind: "render", slug, options: { variables, strictVariables: false } });
  });
});
