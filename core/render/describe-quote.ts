// A render's quote (core/protocol/render-quote.ts) as one line a person reads: the CLI's `render --dry-run` prints it
// and MCP's render tool answers it for a dry run. Pure.
import type { RenderQuote } from "../protocol/render-quote.ts";

const seconds = (s: number) => (s < 90 ? `${s} s` : `${Math.round(s / 6) / 10} min`);

export function describeQuote(quote: RenderQuote): string {
  const size = quote.width !== null && quote.height !== null ? `${quote.width}x${quote.height}` : "size unknown";
  const frames = quote.frames === null ? "frames unknown" : `${quote.frames} frames`;
  const cost =
    quote.renderSeconds === null || quote.wallSeconds === null
      ? "no estimate"
      : `about ${seconds(quote.wallSeconds)} to render${quote.segments && quote.segments > 1 ? ` split on ${quote.segments} nodes` : ""} (${seconds(quote.renderSeconds)} of node time)`;
  const wait = quote.queue.etaSeconds === null ? `queue position ${quote.queue.position}` : `queue position ${quote.queue.position}, a node in about ${seconds(quote.queue.etaSeconds)}`;
  const why = quote.reason ? ` (${quote.reason})` : "";
  return `${frames} at ${Math.round(quote.fps * 1000) / 1000} fps, ${size}; ${cost}; ${wait}${why}. Model ${quote.model.version}.`;
}
