// Range renders at the API (issue 34, point 6): from/to refused with a 400 naming the option when they cannot be a
// part of the composition (nothing stored or queued); the quote counts the range's frames; the render's state and
// the node's job carry from/to; a plan of a range is split across nodes over the range only.
import { readCompositionCostFacts } from "../../core/composition/read-cost-facts.ts";
import { starterComposition } from "../../core/composition/starter.ts";
import { costFeatures, estimateSeconds } from "../../core/render/cost-model.ts";
import { COST_MODEL_FIT } from "../../core/render/cost-model-fit.ts";
import { env } from "cloudflare:test";
import { describe, expect, it, onTestFinished } from "vitest";
import { ClaimResponseSchema } from "../../core/protocol/node-routes.ts";
import { RenderStateSchema } from "../../core/protocol/render-state.ts";
import { api, createProject, json, signIn } from "./helpers.ts";
import { claim, nodeCall, parkIdleNodes, registerNode } from "./node-helpers.ts";
import { renderState } from "./render-farm-helpers.ts";

/** What the Worker reads of a new project's starter composition (its blurred glows, no clips, its own background). */
const STARTER_MEDIA = readCompositionCostFacts(starterComposition({ compositionId: "starter", title: "Starter" }))!;

const count = async (table: "renders" | "jobs", userId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>())?.n ?? 0;

describe("range renders", () => {
  it("refuses a from/to that is not a part of the composition with a 400 naming the option, and stores and queues nothing", async () => {
    const s = await signIn("range-bad");
    const { slug } = await createProject(s.token, "Range Bad"); // the starter: 6 s at 30 fps, 180 frames
    const cases: [Record<string, unknown>, string][] = [
      [{ from: -1 }, 'invalid from: -1; give seconds as a number from 0 to 3600 (2.5) or a frame number at the render\'s rate as a string ("75f")'],
      [{ to: "2s" }, 'invalid to: "2s"; give seconds as a number from 0 to 3600 (2.5) or a frame number at the render\'s rate as a string ("75f")'],
      [{ from: true }, 'invalid from: true; give seconds as a number from 0 to 3600 (2.5) or a frame number at the render\'s rate as a string ("75f")'],
      [{ from: 3, to: 2 }, "invalid to: 2; must be after from (3)"],
      [{ from: "30f", to: "30f" }, 'invalid to: "30f"; must be after from ("30f")'],
      [{ from: 1, to: "60f" }, 'invalid to: "60f"; give from and to in the same unit (both seconds or both frames such as "75f")'],
      // Past the root's declared length, at the rate the render will use.
      [{ from: 6 }, "invalid from: 6 is frame 180, at or past the composition's end (180 frames, 6 s at 30 fps)"],
      [{ from: 2, to: 7 }, "invalid to: 7 is frame 210, past the composition's end (180 frames, 6 s at 30 fps)"],
      [{ to: "145f", fps: 24 }, 'invalid to: "145f" is frame 145, past the composition\'s end (144 frames, 6 s at 24 fps)'],
      [{ from: 0.01, to: 0.012 }, "invalid to: 0.012 is frame 0, not after from's frame 0 at 30 fps: the range holds no frame"],
    ];
    for (const [body, error] of cases) {
      for (const dryRun of [false, true]) {
        const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { ...body, ...(dryRun ? { dryRun } : {}) });
        expect(await json(res), JSON.stringify(body)).toEqual({ error, code: "bad_request" });
        expect(res.status).toBe(400);
      }
    }
    // A batch shares the render's options, and their rules.
    const batch = await api(s.token, "POST", `/api/projects/${slug}/batch`, { from: 6, rows: [{}] });
    expect(await json(batch)).toEqual({ error: "invalid from: 6 is frame 180, at or past the composition's end (180 frames, 6 s at 30 fps)", code: "bad_request" });
    expect(await json(await api(s.token, "GET", `/api/projects/${slug}/render`))).toEqual({ status: "none", recent: [] });
    expect(await count("renders", s.userId)).toBe(0);
    expect(await count("jobs", s.userId)).toBe(0);
  });

  it("quotes the range's frames; the render's state and the node's job carry from and to", async () => {
    const key = await registerNode("range-node");
    const s = await signIn("range-quote");
    const { slug } = await createProject(s.token, "Range Quote");
    // Seconds 1 to 3 of the starter's 6: 60 frames, quoted by the cost model for 60 frames (not the whole 180).
    const dry = await json<{ quote: Record<string, unknown> }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { dryRun: true, from: 1, to: 3, format: "webm" }));
    const starterFrames = (frames: number, format: "mp4" | "webm" = "mp4") =>
      Math.round(estimateSeconds(costFeatures({ frames, fps: 30, width: 1920, height: 1080, format, quality: "standard" }, STARTER_MEDIA, COST_MODEL_FIT.browsers), COST_MODEL_FIT.coefficients) * 10) / 10;
    const seconds = starterFrames(60, "webm");
    expect(dry.quote).toMatchObject({ frames: 60, renderSeconds: seconds, wallSeconds: seconds, segments: 1, model: { throughputScale: 1 } });
    const byFrames = await json<{ quote: Record<string, unknown> }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { dryRun: true, from: "150f" }));
    expect(byFrames.quote).toMatchObject({ frames: 30, renderSeconds: starterFrames(30) });

    onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/render`)));
    const res = await api(s.token, "POST", `/api/projects/${slug}/render`, { from: 1, to: 3, format: "webm" });
    expect(res.status).toBe(202);
    const state = RenderStateSchema.parse(await json(res));
    expect(state).toMatchObject({ from: 1, to: 3, quote: dry.quote });
    expect(RenderStateSchema.parse(await renderState(s.token, slug))).toMatchObject({ from: 1, to: 3 });
    let job = await claim(key);
    while (job && job.id !== state.id) job = await claim(key); // earlier tests' queued renders
    expect(job?.options).toMatchObject({ format: "webm", from: 1, to: 3 });
    // A render without a range shows none.
    const plain = await signIn("range-plain");
    const other = await createProject(plain.token, "Range Plain");
    onTestFinished(async () => void (await api(plain.token, "DELETE", `/api/projects/${other.slug}/render`)));
    const whole = await json<Record<string, unknown>>(await api(plain.token, "POST", `/api/projects/${other.slug}/render`, {}));
    expect(Object.keys(whole)).not.toContain("from");
    expect(Object.keys(whole)).not.toContain("to");
  });

  it("splits a range across nodes over the range only: segments of its frames, each with the plan's first frame and the options' from/to", async () => {
    const [a, b, c] = [await registerNode("range-a"), await registerNode("range-b"), await registerNode("range-c")];
    const s = await signIn("range-split");
    const { slug } = await createProject(s.token, "Range Split", { duration: 60 });
    const state = await json<{ id: string }>(await api(s.token, "POST", `/api/projects/${slug}/render`, { quality: "draft", from: 20, to: 60 }));
    onTestFinished(async () => void (await api(s.token, "DELETE", `/api/projects/${slug}/render`)));
    while ((await claim(a))?.id !== state.id); // earlier tests' queued renders
    // The planning node's plan of seconds 20 to 60: 1200 frames of the output, from the composition's frame 600.
    const plan = {
      composition: "index.html", frames: 1200, firstFrame: 600, fps: { num: 30, den: 1 }, fpsText: "30", durationSeconds: 40,
      width: 1920, height: 1080, audio: [], findings: [],
    };
    const parked = [...(await parkIdleNodes(b, ["p"])), ...(await parkIdleNodes(c, ["p"]))];
    const planned = await json<{ segments: { index: number; fromFrame: number; toFrame: number }[] }>(await nodeCall(a, "POST", `/jobs/${state.id}/plan`, { plan }));
    expect(planned.segments).toEqual([0, 1, 2].map((i) => ({ index: i, fromFrame: i * 400, toFrame: (i + 1) * 400 })));
    const claimNext = async () => {
      const res = await nodeCall(a, "POST", "/jobs/claim?wait=0", { kinds: ["segment"], nodeId: "p" });
      return res.status === 204 ? null : ClaimResponseSchema.parse(await res.json()).job;
    };
    const jobs = [...(await Promise.all(parked)), await claimNext()];
    for (const job of jobs) {
      expect(job?.options).toMatchObject({ renderId: state.id, plan: { frames: 1200, firstFrame: 600 }, render: { from: 20, to: 60 } });
    }
    expect(jobs.map((j) => j?.options.index).sort()).toEqual([0, 1, 2]);
    const progress = await renderState(s.token, slug);
    expect(progress.segments).toHaveLength(3);
    expect(progress.lines).toContainEqual(expect.stringMatching(
      /^render split into 3 segments of about 400 frames \(1200 frames at 30 fps, the composition's frames 600 to 1799\) for 3 free nodes/,
    ));
    // Which waiting node took which segment is a race.
    expect(progress.lines).toContainEqual(expect.stringMatching(/^segment 0: node range-[abc]\/p renders frames 0-399$/));
  });
});
