// A batch as its ProjectRoom runs it: the record in the room's storage (batch-transitions.ts decides), one row at a
// time through the room's own render start (render-driver.ts `admit`, the one function it is given), so a row is a
// render in every way (one at a time, split across nodes, strict lint, caps, its own webhook and events). When a
// row's render ends (the driver tells `renderEnded`), its outcome is recorded and the next row starts in the same
// call; the room's alarm picks the batch up should that break. A cancel hands the running row's render back for the
// driver to end (user-calls.ts `cancelBatch`). Each change is told as a `batch` event on the project's stream; the
// end queues the batch's webhook.
import { reservationOf, type BudgetRefused, type RenderCharge } from "../../budgets/charge.ts";
import { budgetExceededMessage } from "../../budgets/budget-exceeded.ts";
import type { BatchState } from "../../../core/protocol/render-state.ts";
import { isInProgress } from "../../../core/protocol/render-state.ts";
import { rowLabel } from "../../../core/render/batch-request.ts";
import type { Env } from "../../env.ts";
import { logEvent } from "../../http/log.ts";
import { notifyBatchEnded } from "../notify-batch-ended.ts";
import type { ProjectLookup } from "../notify-render-ended.ts";
import { wakeRenderNodes } from "../farm/render-node-container.ts";
import { queuedRender, type QueuedRender, type RoomRender } from "../state.ts";
import { strictLintFailures } from "../strict-lint.ts";
import { quoteRender } from "../quote-render.ts";
import type { ProjectRef } from "../../storage/keys.ts";
import type { RenderOptions } from "../../../core/render/render-options.ts";
import type { RenderQuote } from "../../../core/protocol/render-quote.ts";
import { batchEnded, batchInProgress, cancelPending, nextPendingRow, publicBatchState, rowRefused, rowRenderEnded, rowStarted, type RoomBatch } from "./batch-transitions.ts";
import type { RenderFeed } from "./render-feed.ts";
import { loadRender } from "./render-store.ts";

const BATCH_KEY = "batch";
/** Each row's variables under its own key: a batch's rows may carry up to the 1 MiB body, more than one value holds. */
const varsKey = (batchId: string, index: number) => `batch-vars:${batchId}:${index}`;
/** Storage takes at most 128 keys per put or delete. */
const KEYS_PER_CALL = 100;

export type StartRenderResult = { started: boolean; view: { id: string } } | { atCap: true } | { overBudget: BudgetRefused };
export type StartBatchResult = { started: boolean; state: BatchState } | { atCap: true } | { renderBusy: true } | { overBudget: BudgetRefused };

/** The room's render start (render-driver.ts `admit`), without the batch check of the public one (user-calls.ts
 * `startRender`): a row's render starts as any render does. */
export type StartRender = (render: QueuedRender, failWith?: string[]) => Promise<StartRenderResult>;

/**
 * A batch row's quote, as a render POST has one; a row whose quote cannot be read (D1 or R2 failing) starts without
 * one, said in the log: the quote informs, it never stops a batch. The first row's is read by the route beside its
 * project read (batch-routes.ts), a later row's here when it starts.
 */
export async function quoteBatchRow(env: Env, ref: ProjectRef, options: RenderOptions, where: Record<string, unknown>): Promise<RenderQuote | undefined> {
  try {
    return await quoteRender(env, ref, options);
  } catch (error) {
    logEvent("warn", "batch.row_quote_unknown", { ...where, error, started: "without a quote" });
    return undefined;
  }
}

/** A cancel of the batch in progress: the running row's render, which the room ends, or null when none ran. */
export interface CancelledRows {
  runningRender: string | null;
}

export class BatchRun {
  constructor(
    private readonly env: Env,
    private readonly storage: DurableObjectStorage,
    private readonly feed: RenderFeed,
    private readonly startRender: StartRender,
  ) {}

  async load(): Promise<RoomBatch | null> {
    return (await this.storage.get<RoomBatch>(BATCH_KEY)) ?? null;
  }

  /** The room's current or last render, read from the same storage. */
  private current(): Promise<RoomRender | null> {
    return loadRender(this.storage);
  }

  async state(): Promise<BatchState | null> {
    const batch = await this.load();
    return batch ? publicBatchState(batch, await this.current()) : null;
  }

  async inProgress(): Promise<boolean> {
    return batchInProgress(await this.load());
  }

  private async save(batch: RoomBatch): Promise<BatchState> {
    await this.storage.put(BATCH_KEY, batch);
    const state = publicBatchState(batch, await this.current());
    this.feed.batchChanged(state);
    return state;
  }

  private async deleteVariables(batch: RoomBatch): Promise<void> {
    const keys = batch.rows.map((row) => varsKey(batch.id, row.index));
    for (let i = 0; i < keys.length; i += KEYS_PER_CALL) await this.storage.delete(keys.slice(i, i + KEYS_PER_CALL));
  }

  /**
   * Starts `batch` (its rows pending) unless a render or batch is in progress: a batch in progress is returned
   * unchanged (`started: false`, as a render POST does), a plain render is `renderBusy`. The first row starts at
   * once; should the user's cap on renders in progress refuse it, nothing stays of the batch (`atCap`).
   */
  async start(batch: RoomBatch, variables: Record<string, unknown>[], firstQuote?: RenderQuote): Promise<StartBatchResult> {
    const previous = await this.load();
    if (batchInProgress(previous)) return { started: false, state: publicBatchState(previous, await this.current()) };
    const current = await this.current();
    if (current && isInProgress(current.status)) return { renderBusy: true };
    const entries = variables.map((vars, index) => [varsKey(batch.id, index), vars] as const);
    for (let i = 0; i < entries.length; i += KEYS_PER_CALL) await this.storage.put(Object.fromEntries(entries.slice(i, i + KEYS_PER_CALL)));
    await this.storage.put(BATCH_KEY, batch);
    const undo = async () => {
      await this.deleteVariables(batch);
      if (previous) await this.storage.put(BATCH_KEY, previous);
      else await this.storage.delete(BATCH_KEY);
    };
    // A first row that cannot start leaves nothing behind: no batch in progress that no render would ever advance.
    const first = await this.startRow(batch, 0, { quote: firstQuote }).catch(async (error: unknown) => {
      if ((await this.current())?.id !== (await this.load())?.rows[0]?.renderId) await undo();
      throw error;
    });
    if (first !== "started") {
      await undo();
      return first === "atCap" ? { atCap: true } : first;
    }
    if (previous) await this.deleteVariables(previous);
    return { started: true, state: (await this.state())! };
  }

  /** A row's charge: the batch's accounts; the first row checks the rows' estimates together. */
  private rowCharge(batch: RoomBatch, index: number, quote: RenderQuote | undefined): { charge?: RenderCharge } {
    if (!batch.charge) return {};
    if (index > 0) return { charge: batch.charge };
    return { charge: { ...batch.charge, checkSeconds: reservationOf(quote) * batch.rows.length } };
  }

  /**
   * Starts the row at `index` as a render; "atCap" when the user's cap refused it, `overBudget` when a budget of the
   * batch's caller did (the row is then failed). The first row's admission checks that the whole batch's estimate
   * fits the budgets (each row reserves its own when it starts).
   */
  private async startRow(batch: RoomBatch, index: number, given?: { quote?: RenderQuote | undefined }): Promise<"started" | "atCap" | { overBudget: BudgetRefused }> {
    const row = batch.rows[index]!;
    const options = { ...batch.options, variables: (await this.storage.get<Record<string, unknown>>(varsKey(batch.id, index))) ?? {} };
    // The first row's quote comes with the batch (the route read it beside the project: no trip of its own here).
    const quote = given ? given.quote : await quoteBatchRow(this.env, batch, options, { batchId: batch.id, row: index });
    const quoted = quote ? { quote } : {};
    const render = { ...queuedRender(batch, options, `${batch.slug}-${rowLabel(row, index)}`), ...quoted, ...this.rowCharge(batch, index, quoted.quote) };
    const failWith = options.strict ? await strictLintFailures(this.env, batch, options.composition) : [];
    // The lint read other storage than the room's, so other calls ran meanwhile: a cancel may have ended the batch.
    const latest = await this.load();
    if (!batchInProgress(latest) || latest.id !== batch.id || nextPendingRow(latest) !== index) return "started";
    // Recorded before the render starts: a strict render with lint errors ends inside startRender, and its end
    // must find its row.
    await this.save(rowStarted(latest, index, render.id, render.filename));
    const result = await this.startRender(render, failWith.length ? failWith : undefined);
    if ("overBudget" in result) {
      await this.save(rowRefused((await this.load())!, index, `${budgetExceededMessage(result.overBudget)}; the row was not rendered`));
      return result;
    }
    if ("atCap" in result || !result.started) {
      const now = (await this.load())!;
      const why = "atCap" in result ? "your limit of renders in progress was reached (renders of other projects); the row was not rendered" : "another render was in progress";
      await this.save(rowRefused(now, index, why));
      return "atCap" in result ? "atCap" : "started";
    }
    if (!failWith.length) await wakeRenderNodes(this.env).catch((error: unknown) => logEvent("error", "batch.wake_failed", { error }));
    return "started";
  }

  /**
   * The room's finish ended `render`: when it is a row of the batch, record it and go on with the next row.
   * `project`: the render's webhook project lookup, which the batch's end shares.
   */
  async renderEnded(render: RoomRender, project?: ProjectLookup): Promise<void> {
    const batch = await this.load();
    if (!batchInProgress(batch)) return;
    const next = rowRenderEnded(batch, render);
    if (!next) return;
    await this.save(next);
    await this.advance(project);
  }

  /**
   * Starts the next pending row, or ends the batch when none is left. Does nothing while a render runs. Called
   * after each row's end and from the room's alarm (a row end whose next step broke).
   */
  async advance(project?: ProjectLookup): Promise<void> {
    for (;;) {
      let batch = await this.load();
      if (!batchInProgress(batch)) return;
      const current = await this.current();
      if (current && isInProgress(current.status)) return;
      // A row's end the room recorded but this batch missed (the room was evicted in between).
      if (current) batch = rowRenderEnded(batch, current) ?? batch;
      const index = nextPendingRow(batch);
      if (index === null) return this.end(batch, project);
      await this.startRow(batch, index);
      // A row that ended at once (strict lint, cap) went through renderEnded already or was refused: go on.
    }
  }

  private async end(batch: RoomBatch, project?: ProjectLookup): Promise<void> {
    const ended = batchEnded(batch, Date.now());
    if (!ended) {
      // Rows still marked running with no render behind them: the room lost their end; they fail, saying so.
      const stuck = batch.rows.filter((row) => row.status === "queued" || row.status === "rendering");
      let fixed = batch;
      for (const row of stuck) fixed = rowRefused(fixed, row.index, "the row's render ended without its outcome reaching the batch");
      return this.end(fixed, project);
    }
    const state = await this.save(ended);
    await this.deleteVariables(ended);
    await notifyBatchEnded(this.env, ended.userId, ended.options.webhookUrl, state, project);
  }

  /**
   * DELETE .../batch: the rows not started are cancelled. The running row's render is handed back for the room to end
   * (its end records the row and ends the batch); with none running the batch ends here. Null when no batch ran.
   */
  async cancelRows(reason: string): Promise<CancelledRows | null> {
    const batch = await this.load();
    if (!batchInProgress(batch)) return null;
    await this.save(cancelPending(batch, reason));
    const current = await this.current();
    if (current && isInProgress(current.status) && batch.rows.some((row) => row.renderId === current.id)) return { runningRender: current.id };
    await this.advance();
    return { runningRender: null };
  }

  /** DELETE /renders/<filename> of a row's file: the row offers no download from now on. */
  async forgetFile(filename: string): Promise<void> {
    const batch = await this.load();
    if (!batch || !batch.rows.some((row) => row.filename === filename)) return;
    await this.save({ ...batch, rows: batch.rows.map((row) => (row.filename === filename ? { ...row, deleted: true } : row)) });
  }
}
