// Paging for the list tools: the REST lists' own `limit` and `next` (an opaque cursor from the previous answer).
// Both travel in the query string, which the REST client encodes from values (rest-client.ts), so a cursor with
// "?", "#", "&" or "/" in it is only ever a wrong cursor (400 invalid_cursor), never another route.
import * as z from "zod";
import { PAGE_LIMIT_MAX, pageParams } from "../http/query.ts";

export const pageArgs = {
  limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).optional().describe(`at most this many (1-${PAGE_LIMIT_MAX})`),
  next: pageParams().next.describe("the `next` cursor of the previous answer, for the following page"),
};
