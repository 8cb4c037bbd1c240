// A render's quote at the API (issue 34, point 3): a dry run answers it and changes nothing (no render, no room
// state, no job, no D1 row); a real render's 202 carries the same quote and keeps it in its state; a composition
// whose length a script sets says so instead of guessing; a batch's dry run quotes a row and the batch's totals; a
// finished render shows what it actually used beside the quote (its state, its D1 row, its webhook).
import { env } from "cloudflare:test";
import { describe, expect, it, onTestFinished } from "vitest";
import { starterComposition } from "../../core/composition/index.ts";
import { RenderQuoteSchema } from "../../core/protocol/render-quote.ts";
import { RenderStateSchema } from "../../core/protocol/render-state.ts";
import { readCompositionCostFacts } from "../../core/composition/read-cost-facts.ts";
import { costFeatures, estimateSeconds, THROUGHPUT_SCALE_RANGE } from "../../core/render/cost-model.ts";
import { COST_MODEL_FIT } from "../../core/render/cost-model-fit.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, deliveredBodies, nodeCall, registerNode } from "./node-helpers.ts";
import { callTool, textOf } from "./mcp-helpers.ts";

/** What the Worker reads of a new project's starter composition (its blurred glows, no clips, its own background). */
const STARTER_MEDIA = readCompositionCostFacts(starterComposition({ compositionId: "starter", title: "Starter" }))!;

const count = async (table: "renders" | "jobs", userId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>())?.n ?? 0;

/** The fitted model's seconds for the starter (6 s of 1920x1080 at 30 fps, no clips) at `quality`, scaled. */
const starterSeconds = (quality: "draft" | "standard", scale: number) =>
  Math.round(estimateSeconds(costFeatures({ frames: 180, fps: 30, width: 1920, height: 1080, format: "mp4", quality }, STARTER_MEDIA, COST_MODEL_FIT.browsers), COST_MODEL_FIT.coefficients) * scale * 10) / 10;

async function project(name: string, html?: string) {
  const s = await signIn(name);
  const { slug } = await createProject(s.token, name);
  if (html) expect((await api(s.token, "PUT", `/api/projects/${slug}/files/index.html`, html)).status).toBe(200);
  return { s, slug };
}

describe("render quotes", () => {
  it("a dry run answers the quote and starts, stores and queues nothing", async () => {
    const { s, slug } = await project("quote-dry");
    const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { dryRun: true, quality: "draft" });
    expect(res.status).toBe(200);
    const answer = await json<{ dryRun: true; quote: unknown }>(res);
    expect(answer.dryRun).toBe(true);
    // The starter: 6 s at 1920x1080 and 30 fps, one node free, no render finished yet (the farm's pace unknown: 1).
    const seconds = starterSeconds("draft", 1);
    expect(RenderQuoteSchema.parse(answer.quote)).toEqual({
      frames: 180, fps: 30, width: 1920, height: 1080, renderSeconds: seconds, wallSeconds: seconds, segments: 1,
      queue: { position: 1, etaSeconds: expect.toSatisfy((eta: unknown) => eta === null || typeof eta === "number") },
      model: { version: COST_MODEL_FIT.version, basis: expect.stringContaining(`fitted on ${COST_MODEL_FIT.fittedOn}`), throughputScale: 1 }, reason: null,
    });
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/render`))).toEqual({ status: "none", recent: [] });
    expect(await count("renders", s.userId)).toBe(0);
    expect(await count("jobs", s.userId)).toBe(0);
    // The room keeps nothing: the next real render is admitted (202), not handed back as one in progress.
    onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/render`))); // the queue left to the tests after
    expect((await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft" })).status).toBe(202);
  });

  it("a real render's 202 carries the same quote, and its state keeps it", async () => {
    const { s, slug } = await project("quote-real");
    const dry = await json<{ quote: unknown }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { dryRun: true, format: "webm", resolution: "square" }));
    onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/render`)));
    const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { format: "webm", resolution: "square" });
    expect(res.status).toBe(202);
    const state = RenderStateSchema.parse(await json(res));
    expect(state.quote).toEqual(dry.quote);
    expect(state.quote).toMatchObject({ frames: 180, width: 1080, height: 1080 });
    const again = RenderStateSchema.parse(await json(await api(s.token, "GET", `/api/projects/${slug}/render`)));
    expect(again.quote).toEqual(dry.quote);
    expect(await count("jobs", s.userId)).toBe(1);
  });

  it("says the frames are unknown when the root declares no duration, instead of guessing", async () => {
    const html = starterComposition({ compositionId: "quote-open", title: "Open", duration: 3 }).replace(/ data-duration="3"/, "");
    const { s, slug } = await project("quote-open", html);
    const { quote } = await json<{ quote: Record<string, unknown> }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { dryRun: true, fps: 24 }));
    expect(quote).toMatchObject({ frames: null, fps: 24, width: 1920, height: 1080, renderSeconds: null, wallSeconds: null, segments: null });
    expect(quote.reason).toContain("no data-duration");
  });

  it("a batch's dry run quotes one row and the batch's totals, and starts nothing; a real batch's row carries the quote", async () => {
    const { s, slug } = await project("quote-batch");
    const res = await api(s.token, "POST", `/api/projects/${slug}/batch`, { dryRun: true, rows: [{}, {}, {}] });
    expect(res.status).toBe(200);
    const row = starterSeconds("standard", 1);
    expect(await json(res)).toMatchObject({ dryRun: true, rows: 3, quote: { frames: 180, renderSeconds: row }, renderSeconds: Math.round(3 * row * 10) / 10 });
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/batch`))).toEqual({ status: "none" });
    expect(await count("jobs", s.userId)).toBe(0);
    // A real batch's row is a render like any other: its state carries the same quote.
    const dry = await json<{ quote: unknown }>(await api(s.token, "POST", `/api/projects/${slug}/batch`, { dryRun: true, rows: [{}] }));
    onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/batch`)));
    expect((await api(s.token, "POST", `/api/projects/${slug}/batch`, { rows: [{}] })).status).toBe(202);
    const first = RenderStateSchema.parse(await json(await api(s.token, "GET", `/api/projects/${slug}/render`)));
    expect(first.quote).toEqual(dry.quote);
  });

  it("a finished render shows the node and wall seconds it actually used beside its quote: state, stored row, webhook", async () => {
    const key = await registerNode("quote-node");
    const { s, slug } = await project("quote-done");
    const started = RenderStateSchema.parse(await json(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft", webhookUrl: "https://hooks.example.com/quote" })));
    expect(started.actual).toBeUndefined();
    const job = await claim(key);
    expect(job?.id).toBe(started.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await nodeCall(key, "PUT", `/jobs/${started.id}/output`, new Uint8Array(64), { "Content-Type": "video/mp4" })).status).toBe(200);
    expect((await nodeCall(key, "POST", `/jobs/${started.id}/complete`, { ok: true })).status).toBe(200);

    const done = RenderStateSchema.parse(await json(await api(s.token, "GET", `/api/projects/${slug}/render`)));
    expect(done.status).toBe("done");
    expect(done.quote).toEqual(started.quote);
    // One node held it from its claim to its end: node seconds and wall seconds are that time, at least the 0.3 s waited.
    expect(done.actual!.renderSeconds).toBeGreaterThanOrEqual(0.3);
    expect(done.actual!.wallSeconds).toBeGreaterThanOrEqual(0.3);
    const stored = RenderStateSchema.parse(await json(await api(s.token, "GET", `/api/renders/${started.id}`)));
    expect(stored).toMatchObject({ quote: started.quote, actual: done.actual });
    const [delivery] = await deliveredBodies(s.userId, started.id);
    expect(delivery!.data).toMatchObject({ quote: started.quote, actual: done.actual });

    // The farm's pace follows what renders really took: this one ran far faster than quoted (a node that uploaded
    // 64 bytes), so the next quote is scaled down, as far as the scale's floor allows, and says so.
    const ratio = (done.actual!.renderSeconds * started.quote!.model.throughputScale!) / started.quote!.renderSeconds!;
    const scale = Math.min(THROUGHPUT_SCALE_RANGE.max, Math.max(THROUGHPUT_SCALE_RANGE.min, ratio));
    expect(scale).toBeLessThan(1);
    const next = await json<{ quote: { renderSeconds: number; model: { throughputScale: number } } }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft", dryRun: true }));
    expect(next.quote.model.throughputScale).toBeCloseTo(scale, 2);
    expect(next.quote.renderSeconds).toBeCloseTo(starterSeconds("draft", next.quote.model.throughputScale), 1);
  });

  it("MCP's render tool with dryRun answers the quote in words and as data, and starts nothing", async () => {
    const { s, slug } = await project("quote-mcp");
    const { result } = await callTool(s.token, "render", { slug, dryRun: true, quality: "draft" });
    expect(result.isError, textOf(result)).toBeFalsy();
    const quote = (result.structuredContent as { quote: { renderSeconds: number; model: { throughputScale: number } } }).quote;
    const seconds = starterSeconds("draft", quote.model.throughputScale);
    expect(result.structuredContent).toMatchObject({ dryRun: true, quote: { frames: 180, width: 1920, height: 1080, renderSeconds: seconds } });
    expect(textOf(result)).toContain(`Quote for ${slug} (nothing started): 180 frames at 30 fps, 1920x1080; about ${seconds} s to render`);
    expect(await count("jobs", s.userId)).toBe(0);
  });
});
