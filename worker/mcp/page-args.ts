// Paging for the list tools: the REST lists' own `limit` and `next` (an opaque cursor from the previous answer).
import { z } from "zod";

export const pageArgs = {
  limit: z.number().int().min(1).max(100).optional().describe("at most this many (1-100)"),
  next: z.string().max(500).optional().describe("the `next` cursor of the previous answer, for the following page"),
};

/** `?a=1&b=2` from the arguments that were given (nothing when none were). */
export function queryOf(args: Record<string, unknown>): string {
  const query = new URLSearchParams(Object.entries(args).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
  return query.size ? `?${query}` : "";
}
