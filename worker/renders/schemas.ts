// Query strings of the render endpoints, shared by the routes and the OpenAPI document.
import { lazy } from "../../core/lazy.ts";
import { pageParams, queryFlag, querySchema } from "../http/query.ts";

/** GET /api/renders: `limit` and `next` page the list; without `limit` it is whole. */
export const listRendersQuery = lazy(() => querySchema(pageParams()));

/** GET /renders/<filename>: `?download` makes it an attachment. */
export const downloadRenderQuery = lazy(() => querySchema({ download: queryFlag().optional() }));

/** POST /api/projects/:slug/render: `?wait=1` is the query form of the body's `wait`. */
export const startRenderQuery = lazy(() => querySchema({ wait: queryFlag().optional() }));
