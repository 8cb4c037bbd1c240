// The quote of a render about to be asked for (quote-estimate.ts computes it): the composition file as the Worker
// reads it statically (size, length, media), the nodes free now as the split decision counts them
// (farm/free-nodes.ts), the queue place of a job queued now (farm/queue-place.ts), the farm's recent pace against
// the cost model (recent-throughput.ts), the fitted model and the farm model from the configuration. Reads only, all
// at once: a dry run answers this and writes nothing.
import type { RenderQuote } from "../../core/protocol/render-quote.ts";
import type { RenderOptions } from "../../core/render/render-options.ts";
import { renderRate } from "../../core/render/render-rate.ts";
import { configOf } from "../config/config-of.ts";
import { openDb } from "../db/client.ts";
import type { Env } from "../env.ts";
import { loadCompositionReaders } from "../projects/load-composition-readers.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import { freeNodes } from "./farm/free-nodes.ts";
import { queuePlace } from "./farm/queue-place.ts";
import { quoteOf, type RootFacts } from "./quote-estimate.ts";
import { farmModel } from "./split-plan.ts";
import { recentThroughput } from "./recent-throughput.ts";
import { COST_MODEL_FIT } from "../../core/render/cost-model-fit.ts";

/** The composition file's facts; null when the file is gone or has no root (the route checked it exists). */
async function readRoot(env: Env, ref: ProjectRef, composition: string): Promise<(RootFacts & { declaredFps: number | null }) | null> {
  const object = await env.FILES.get(fileKey(ref, composition));
  if (!object) return null;
  const { readCompositionCostFacts } = await loadCompositionReaders();
  const facts = readCompositionCostFacts(await object.text());
  if (!facts) return null;
  const { size, ...media } = facts;
  return { width: size.width, height: size.height, durationSeconds: size.duration, declaredFps: size.fps, ...media };
}

export async function quoteRender(env: Env, ref: ProjectRef, options: RenderOptions, now = Date.now()): Promise<RenderQuote> {
  const db = openDb(env.DB);
  // A GIF is never split: the room does not count free nodes for one either. All read at once: no sequential trip.
  const [root, free, queue, throughputScale] = await Promise.all([
    readRoot(env, ref, options.composition),
    options.format === "gif" ? Promise.resolve({ count: 1 }) : freeNodes(env, false),
    queuePlace(db, now, now),
    recentThroughput(db, now),
  ]);
  const fps = renderRate(options, root?.declaredFps ?? null).fps;
  return quoteOf({ root, fps, options, freeNodes: free.count, model: farmModel(configOf(env)), queue, fit: COST_MODEL_FIT, throughputScale });
}
