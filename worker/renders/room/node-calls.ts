// What a render node's calls about a render's jobs do in the room (the node routes, farm/node-routes.ts,
// farm/node-claim-route.ts, farm/release-job.ts, farm/node-upload-routes.ts, reach them through project-room.ts): a
// claim heard, progress, the plan, a completion, a job given back, and whether an upload (a live piece, the file, a segment) is still wanted. Each
// reads what its transition needs (render-facts.ts: the job rows, the uploaded file, the split decision), decides
// on the render as it is after those reads (a report may have changed it meanwhile) and hands the step to the
// driver (render-driver.ts). A report on a render that is no longer live, or from a node that no longer holds the
// job, changes nothing.
import type { CompleteRequest } from "../../../core/protocol/node-routes.ts";
import type { ProgressEvent } from "../../../core/protocol/progress.ts";
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import type { Env } from "../../env.ts";
import type { JobHolder } from "../farm/job-holder.ts";
import { segmentKey } from "../segment-keys.ts";
import { joinJobId, segmentJobId } from "../state.ts";
import type { RenderDriver } from "./render-driver.ts";
import { endedStatus, heldJobLook, holds, limitsOf, splitDecision, uploadedPoster, uploadedSize } from "./render-facts.ts";
import { isLive } from "./render-step.ts";
import { completed, givenBack, planned, progressed, taken } from "./render-transitions.ts";
import { segmentCompleted, segmentTaken } from "./split-transitions.ts";

/** What a node uploads for a render: its file (or poster, or manifest), a split render's segment, a live piece. */
export type RenderUpload = "file" | "segment" | "live piece";

/** What a completion answers the node: an error when the room found no file it said it uploaded. */
export type CompleteAnswer = { ok: boolean; error?: string };

export class NodeCalls {
  constructor(
    private readonly env: Env,
    private readonly driver: RenderDriver,
  ) {}

  /** A render node took the render's job (`attempt` 1, or a later one after a lost lease). */
  async markRendering(renderId: string, nodeName: string, attempt = 1): Promise<void> {
    const render = await this.driver.current();
    if (!render || render.id !== renderId) return;
    await this.driver.apply(taken(render, nodeName, attempt, limitsOf(this.env).maxAttempts, Date.now()));
  }

  /** A node's progress post on a render, segment or join job: its lines, and its frames (summed over segments).
   * `cancelled`: the render is no longer live, so the node should stop. */
  async nodeProgress(renderId: string, segment: number | "join" | null, lines: string[], event?: ProgressEvent): Promise<{ cancelled: boolean }> {
    const render = await this.driver.current();
    if (!isLive(render, renderId)) return { cancelled: true };
    await this.driver.apply(progressed(render, segment, lines, event));
    return { cancelled: false };
  }

  /**
   * POST /api/node/jobs/:id/plan: the node that holds the render job loaded the composition. The render is split when
   * that finishes it sooner with the nodes free now (render-facts.ts splitDecision): the render job ends and one
   * segment job per frame range is queued for any nodes; otherwise it stays whole on the planning node. A plan longer
   * than MAX_VIDEO_SECONDS fails the render and queues nothing.
   */
  async plan(renderId: string, holder: JobHolder, plan: RenderPlan): Promise<{ segments: SegmentRange[]; cancelled: boolean }> {
    const render = await this.driver.current();
    if (!isLive(render, renderId) || !(await holds(this.env, renderId, holder))) return { segments: [], cancelled: true };
    const decision = await splitDecision(this.env, render, plan);
    if ("tooLong" in decision) {
      await this.driver.finish(renderId, { ok: false, error: decision.tooLong });
      return { segments: [], cancelled: true };
    }
    const latest = await this.driver.current();
    if (!isLive(latest, renderId)) return { segments: [], cancelled: true };
    // Planned before the room heard of the claim: nothing to split from; the node renders it whole (one segment of
    // every frame: a node reads any other count as a split and stops).
    if (latest.phase !== "rendering") return { segments: [{ index: 0, fromFrame: 0, toFrame: plan.frames }], cancelled: false };
    await this.driver.apply(planned(latest, plan, decision.ranges, decision.line));
    return { segments: decision.ranges, cancelled: false };
  }

  /**
   * POST /api/node/jobs/:id/complete of a render or join job, from the node that holds it. The room decides the
   * outcome (a success with no uploaded file is a failure) and ends the render, which ends the job: the job is never
   * ended first, so a completion that breaks halfway leaves a decision the alarm finishes writing, never a lost one.
   */
  async complete(jobId: string, holder: JobHolder, body: CompleteRequest): Promise<CompleteAnswer> {
    const render = await this.driver.current();
    if (!render || !(render.id === jobId || joinJobId(render.id) === jobId) || !isLive(render, render.id)) return { ok: true };
    if (!(await holds(this.env, jobId, holder))) return { ok: false, error: "this node no longer holds the job" };
    const [size, poster] = body.ok ? await Promise.all([uploadedSize(this.env, render), uploadedPoster(this.env, render, body.posterError)]) : [null, undefined];
    const latest = await this.driver.current();
    if (!isLive(latest, render.id)) return { ok: true };
    const carried = body.ok && body.carried ? { carried: body.carried } : {};
    await this.driver.apply(completed(latest, body.ok ? { ok: true, size, ...(poster ? { poster } : {}), ...carried } : { ok: false, error: body.error }));
    return body.ok && size === null ? { ok: false, error: "the render node reported success but uploaded no file" } : { ok: true };
  }

  /**
   * POST /api/node/jobs/:id/release of a render, segment or join job: the node that holds it is stopping and gives it
   * back (render-transitions.ts `givenBack`: queued again at once, or on the last attempt the render fails).
   */
  async giveBack(renderId: string, jobId: string, holder: JobHolder): Promise<{ released: boolean }> {
    const held = await heldJobLook(this.env, jobId, holder);
    const render = await this.driver.current();
    if (!held || !isLive(render, renderId)) return { released: false };
    const step = givenBack(render, held.job, held.nodeNames, limitsOf(this.env), Date.now());
    return { released: (await this.driver.apply(step)) !== null };
  }

  /**
   * A node's upload for a render, once stored (PUT /api/node/jobs/:id/output, …/poster, …/manifest, …/live/:n):
   * whether it may stay. The upload route removes anything else (node-upload-routes.ts keptOrRemoved). Nothing is left
   * behind, since the render's end stores it as ended before it removes what its uploads left, so an upload wanted
   * here was stored before that removal:
   *   - a live piece while the render is still rendering whole (its end sweeps the pieces: live-sweeps.ts);
   *   - a split render's segment while the render is split;
   *   - the render's file, poster and manifest while the render is in progress or once it is done (they are its own,
   *     offered and deleted with it; the end of a render not done removed them: projection.ts writeEndedRender).
   */
  async keepsUpload(renderId: string, upload: RenderUpload): Promise<boolean> {
    const render = await this.driver.current();
    if (upload === "live piece") return isLive(render, renderId) && render.phase === "rendering";
    if (upload === "segment") return isLive(render, renderId) && render.phase === "split";
    if (render?.id === renderId) return render.phase !== "ended" || render.status === "done";
    // A newer render is the room's now: the earlier one ended, as its row says.
    return (await endedStatus(this.env, renderId)) === "done";
  }

  /** A node took a segment or the join (`attempt` 1, or later after a lost lease). */
  async markSegment(renderId: string, segment: number | "join", nodeName: string, attempt: number): Promise<void> {
    const render = await this.driver.current();
    if (!isLive(render, renderId) || render.phase !== "split") return;
    await this.driver.apply(segmentTaken(render, segment, nodeName, attempt, limitsOf(this.env).maxAttempts));
  }

  /** POST /api/node/jobs/:id/complete of a segment job. The last segment done queues the join. */
  async completeSegment(renderId: string, index: number, holder: JobHolder, body: CompleteRequest): Promise<CompleteAnswer> {
    const render = await this.driver.current();
    if (!isLive(render, renderId) || render.phase !== "split" || !render.segments[index]) return { ok: true };
    if (!(await holds(this.env, segmentJobId(renderId, index), holder))) return { ok: false, error: "this node no longer holds the job" };
    const uploaded = body.ok && !!(await this.env.FILES.head(segmentKey(render.userId, renderId, index)));
    const latest = await this.driver.current();
    if (!isLive(latest, renderId) || latest.phase !== "split") return { ok: true };
    await this.driver.apply(segmentCompleted(latest, index, body.ok ? { ok: true, uploaded } : { ok: false, error: body.error }));
    return body.ok && !uploaded ? { ok: false, error: `segment ${index}: the render node reported success but uploaded no file` } : { ok: true };
  }
}
