// Query strings of the render endpoints, shared by the routes and the OpenAPI document.
import { pageParams, queryFlag, querySchema } from "../http/query.ts";

/** GET /api/renders: `limit` and `next` page the list; without `limit` it is whole. */
export const listRendersQuery = querySchema(pageParams);

/** GET /renders/<filename>: `?download` makes it an attachment. */
export const downloadRenderQuery = querySchema({ download: queryFlag.optional() });

/** POST /api/projects/:slug/render: `?wait=1` is the query form of the body's `wait`. */
export const startRenderQuery = querySchema({ wait: queryFlag.optional() });
