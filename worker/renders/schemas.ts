// Query strings of the render endpoints, shared by the routes and the OpenAPI document.
import { lazy } from "../../core/lazy.ts";
import * as z from "zod";
import { pageParams, queryFlag, queryInt, querySchema } from "../http/query.ts";

/** GET /api/renders: `limit` and `next` page the list; without `limit` it is whole. */
export const listRendersQuery = lazy(() => querySchema(pageParams()));

/** GET /renders/<filename>: `?download` makes it an attachment. */
export const downloadRenderQuery = lazy(() => querySchema({ download: queryFlag().optional() }));

/** POST /api/projects/:slug/render: `?wait=1` is the query form of the body's `wait`. */
export const startRenderQuery = lazy(() => querySchema({ wait: queryFlag().optional() }));

/** An event id: every event's `id:` line is a whole number that only grows (room/event-log.ts). */
const eventId = () => queryInt(0, Number.MAX_SAFE_INTEGER);

/** GET /api/projects/:slug/render/events: `?lastEventId=` resumes after that event (the query form of Last-Event-ID). */
export const renderEventsQuery = lazy(() =>
  querySchema({ lastEventId: eventId().optional().describe("resume after this event id: the events since, instead of the snapshot (the query form of Last-Event-ID)") }),
);

/** What EventSource sends on reconnecting: the last event id it saw. */
export const renderEventsHeaders = lazy(() =>
  z.object({ "Last-Event-ID": z.string().optional().describe("resume after this event id (EventSource sends it on reconnecting); an id the stream no longer keeps, or not one of its ids, gets the snapshot") }),
);
