// The render tools' answer, the same whether it comes from a call that waited (render, get_render) or from a task's
// result (tasks/result, render-tasks.ts): the render's state with its absolute links, what to call next while it
// runs, and the finished video once it is done (finished-video.ts).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { RenderOrNone } from "../../core/protocol/render-state.ts";
import { finishedVideo, finishedVideoOutput } from "./finished-video.ts";
import { loose, renderLinks, restOutput } from "./output-schema.ts";
import { RenderQuoteSchema } from "../../core/protocol/render-quote.ts";
import { renderText } from "./result-text.ts";
import { apiPath, type RestClient } from "./rest-client.ts";
import { toolResult } from "./tool-result.ts";

export const renderPath = (slug: string) => apiPath("/api/projects", slug, "render");

export const renderOutput = restOutput("getRenderById").extend({
  links: renderLinks,
  next: z.string().optional().describe("present while the render runs: the call to make next"),
  video: finishedVideoOutput.optional(),
});

/** The render tool's answer: a render's state, or with dryRun the quote alone (then no render fields). */
export const renderToolOutput = renderOutput.partial().extend({
  dryRun: z.literal(true).optional().describe("present when dryRun was asked: only `quote` follows"),
  quote: loose(RenderQuoteSchema).optional().describe("what the render is expected to cost (a dry run's whole answer; a render's state carries it too)"),
});

/** get_render's answer: a render's state, or { status: "none", recent } before the first render. */
export const getRenderOutput = renderOutput.partial().extend({
  status: z.enum(["none", "queued", "rendering", "done", "failed", "cancelled"]),
  recent: restOutput("listRenders").shape.renders.optional().describe('with status "none": the project\'s earlier renders'),
});

/** A render's state with its absolute links, (while it runs) what to call next, and (once done) its video. */
export async function renderAnswer(rest: RestClient, slug: string, state: RenderOrNone, handle: boolean): Promise<CallToolResult> {
  const links = state.id
    ? {
        render: rest.origin + apiPath("/api/renders", state.id),
        project: rest.origin + renderPath(slug),
        ...(state.downloadUrl ? { download: rest.origin + state.downloadUrl } : {}),
        ...(state.posterUrl ? { poster: rest.origin + state.posterUrl } : {}),
        ...(state.liveUrl ? { live: rest.origin + state.liveUrl } : {}),
      }
    : undefined;
  // A running render can be watched: its finished segments so far as an HLS playlist (the same bearer token).
  const watch = state.liveUrl ? ` Its finished segments play so far as HLS at ${rest.origin + state.liveUrl} (same token).` : "";
  const next = handle ? `The render is still ${state.status}: call get_render with slug "${slug}" to follow it (or render again with wait: true).${watch}` : undefined;
  const video = state.status === "none" ? undefined : await finishedVideo(rest, state);
  const text = [renderText(slug, state, links?.download), next].filter(Boolean).join(" ");
  return toolResult(rest.origin, text, { ...state, ...(links ? { links } : {}), ...(next ? { next } : {}), ...(video ? { video } : {}) });
}
