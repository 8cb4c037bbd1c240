// The quote of a render about to be asked for (quote-estimate.ts computes it): the composition's root as the Worker
// reads it statically, the nodes free now as the split decision counts them (farm/free-nodes.ts), the queue place
// of a job queued now (farm/queue-place.ts), and the farm model from the configuration. Reads only: a dry run
// answers this and writes nothing.
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

/** The root's declared facts; null when the file is gone or has no root (the route checked it exists). */
async function readRoot(env: Env, ref: ProjectRef, composition: string): Promise<(RootFacts & { declaredFps: number | null }) | null> {
  const object = await env.FILES.get(fileKey(ref, composition));
  if (!object) return null;
  const { readCompositionSize } = await loadCompositionReaders();
  const size = readCompositionSize(await object.text());
  if (!size) return null;
  return { width: size.width, height: size.height, durationSeconds: size.duration, declaredFps: size.fps };
}

export async function quoteRender(env: Env, ref: ProjectRef, options: RenderOptions, now = Date.now()): Promise<RenderQuote> {
  // A GIF is never split: the room does not count free nodes for one either.
  const [root, free, queue] = await Promise.all([
    readRoot(env, ref, options.composition),
    options.format === "gif" ? Promise.resolve({ count: 1 }) : freeNodes(env, false),
    queuePlace(openDb(env.DB), now, now),
  ]);
  const fps = renderRate(options, root?.declaredFps ?? null).fps;
  return quoteOf({ root, fps, options, freeNodes: free.count, model: farmModel(configOf(env)), queue });
}
