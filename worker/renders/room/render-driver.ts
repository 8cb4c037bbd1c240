// A render's life carried out in its room, the one way a render changes: its start (admitted by render-ends.ts
// `begin`; a strict render with lint errors failed at once), each transition's step applied (apply-step.ts), and the
// end a step asks for (render-ends.ts `end`), after which a batch goes on with its next row (batch-run.ts, whose rows
// start here too). The nodes' calls (node-calls.ts), the user's (user-calls.ts) and the watchdog (watchdog.ts) read
// the render, decide with a transition and hand the step here.
import type { BudgetRefused } from "../../budgets/charge.ts";
import type { Env } from "../../env.ts";
import { logEvent } from "../../http/log.ts";
import { announceWork } from "../farm/job-board.ts";
import type { QueuedRender, RoomRender } from "../state.ts";
import { applyStep } from "./apply-step.ts";
import type { BatchRun } from "./batch-run.ts";
import { renderView, type RenderEnds, type RenderView } from "./render-ends.ts";
import type { RenderFeed } from "./render-feed.ts";
import { withLines, type Step } from "./render-step.ts";
import { loadRender } from "./render-store.ts";
import type { Outcome } from "./render-transitions.ts";

/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type AdmitResult = { started: boolean; view: RenderView } | { atCap: true } | { overBudget: BudgetRefused };

/** How a strict render with lint errors ends, at once, with its errors in its log. */
const STRICT_LINT_FAILURE: Outcome = { ok: false, error: "lint errors (strict): fix them or render without strict" };

export class RenderDriver {
  constructor(
    private readonly env: Env,
    private readonly storage: DurableObjectStorage,
    private readonly feed: RenderFeed,
    private readonly ends: RenderEnds,
    private readonly batch: BatchRun,
  ) {}

  /** The room's current or last render, null when the project never rendered. */
  current(): Promise<RoomRender | null> {
    return loadRender(this.storage);
  }

  /** The render as GET .../render shows it, with its log. */
  view(render: RoomRender): RenderView {
    return renderView(this.feed, render);
  }

  /**
   * A render's start (a render POST, or a batch's row): admitted (render-ends.ts `begin`: `started: false` with the
   * render in progress, if any; a reuse from the render cache when `reuse`), then failed at once when strict lint
   * found errors (`failWith`), else the nodes are told there is work.
   */
  async admit(render: QueuedRender, failWith?: string[], reuse = false): Promise<AdmitResult> {
    const admission = await this.ends.begin(render, !failWith, reuse);
    if ("atCap" in admission || "overBudget" in admission) return admission;
    if ("inProgress" in admission) return { started: false, view: this.view(admission.inProgress) };
    if ("reused" in admission) return { started: true, view: this.view(admission.reused) };
    const { queued } = admission;
    if (failWith) {
      await this.apply(withLines(queued, failWith));
      await this.finish(queued.id, STRICT_LINT_FAILURE);
    } else {
      await announceWork(this.env, "render");
    }
    return { started: true, view: this.view((await this.current()) ?? queued) };
  }

  /** Carries out a transition's step (apply-step.ts) and the end it asks for; null when the step was dropped. */
  async apply(step: Step | null): Promise<RoomRender | null> {
    const applied = await applyStep(this.env, this.storage, this.feed, step);
    if (applied?.end) await this.finish(applied.render.id, applied.end);
    return applied?.render ?? null;
  }

  /**
   * The render ended: done (with the file's size), failed (with why), or cancelled. render-ends.ts stores, writes and
   * tells it; then a batch goes on with its next row. The render as it stands when it was not live.
   */
  async finish(renderId: string, outcome: Outcome): Promise<RenderView | null> {
    const ended = await this.ends.end(renderId, outcome);
    if (!ended) {
      const render = await this.current();
      return render ? this.view(render) : null;
    }
    // A batch's row: record it and start the next row; should that break, the alarm goes on with it.
    await this.batch.renderEnded((await this.current()) ?? ended.final, ended.project).catch(async (error: unknown) => {
      logEvent("error", "batch.advance_failed", { renderId, error, retry: "alarm" });
      await this.storage.setAlarm(Date.now() + 1000);
    });
    return ended.view;
  }
}
