// Query strings of the file endpoints, shared by the routes and the OpenAPI document.
import * as z from "zod";
import { queryFlag, querySchema } from "../../http/query.ts";

/** GET …/files/<path>: `?download` makes it an attachment. */
export const readFileQuery = querySchema({ download: queryFlag.optional() });

/** PUT/POST …/files/<path>: `?encoding=base64` when the body is base64 text. */
export const writeFileQuery = querySchema({
  encoding: z.literal("base64", { error: "the only encoding is base64" }).optional(),
});

/** Endpoints with no query parameters of their own. */
export const noQuery = querySchema({});
