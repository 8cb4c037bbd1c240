// Rendering: start, read, cancel and follow a project's render; the caller's renders and their files.
import * as z from "zod";
import { renderOptionsSchema } from "../../core/render/render-options.ts";
import { downloadRenderQuery, listRendersQuery, startRenderQuery } from "../renders/schemas.ts";
import { NoCurrentRenderSchema, RenderListEntrySchema, RenderStateSchema, RenderWithLogSchema } from "../../core/protocol/render-state.ts";
import { nextCursor } from "./shapes.ts";
import { json, pathParams, slugParam, type Operation } from "./operation.ts";

const video = (description: string) => ({ description, body: { media: "video/*", schema: z.string().meta({ format: "binary" }) } });

export const renderOperations: Operation[] = [
  {
    method: "post", path: "/api/projects/{slug}/render", operationId: "startRender",
    summary: "Start a render (one at a time per project; a POST while one runs returns it; 409 batch_in_progress while a batch runs). With wait, answers when it ends, with its log. Option webhookUrl: POSTed when it ends (see webhooks), else the project's webhook.",
    tag: "renders", access: "user", params: slugParam, query: startRenderQuery, body: { json: renderOptionsSchema }, headers: z.object({ "Idempotency-Key": z.string().optional() }),
    responses: { 202: json(RenderStateSchema, "queued"), 200: json(z.union([RenderWithLogSchema, RenderStateSchema]), "the render already in progress, or (wait) the ended render with its log") },
    errors: [400, 404, 409, 422, 429],
  },
  {
    method: "get", path: "/api/projects/{slug}/render", operationId: "getRender", summary: "The current or last render with its log, or { status: none, recent }", tag: "renders", access: "user", params: slugParam,
    responses: { 200: json(z.union([RenderWithLogSchema, NoCurrentRenderSchema]), "the render") }, errors: [404],
  },
  {
    method: "delete", path: "/api/projects/{slug}/render", operationId: "cancelRender", summary: "Cancel the render", tag: "renders", access: "user", params: slugParam,
    responses: { 200: json(z.object({ stopped: z.boolean() }), "whether a render was stopped") }, errors: [404],
  },
  {
    method: "get", path: "/api/projects/{slug}/render/events", operationId: "renderEvents", summary: "Server-Sent Events: snapshot, start, line, end", tag: "renders", access: "user", params: slugParam,
    responses: { 200: { description: "an event stream", body: { media: "text/event-stream", schema: z.string() } } }, errors: [404],
  },
  {
    method: "get", path: "/api/projects/{slug}/events", operationId: "projectEvents", summary: "Server-Sent Events of the project itself: renders started or ended, files written or deleted (stays open)", tag: "projects", access: "user", params: slugParam,
    responses: { 200: { description: "an event stream: `render` first (the current or last render's state without `lines`, or `{ status: \"none\" }`) and again at each render's start and end; `batch` next when the project has a batch (BatchState) and again at each batch start, row start, row end and batch end; `files` events ({ written, deleted })", body: { media: "text/event-stream", schema: z.string() } } }, errors: [404],
  },
  {
    method: "get", path: "/api/renders", operationId: "listRenders", summary: "The caller's rendered files, newest first (paged with limit and next)", tag: "renders", access: "user", query: listRendersQuery,
    responses: { 200: json(z.object({ renders: z.array(RenderListEntrySchema), next: nextCursor }), "the files") }, errors: [400],
  },
  {
    method: "get", path: "/api/renders/{id}", operationId: "getRenderById", summary: "One render's state by id, in any state (no log)", tag: "renders", access: "user", params: pathParams("id"),
    responses: { 200: json(RenderStateSchema, "the render") }, errors: [404],
  },
  {
    method: "get", path: "/renders/{filename}", operationId: "downloadRender", summary: "Download a render (Range; ?download)", tag: "renders", access: "user", params: pathParams("filename"), query: downloadRenderQuery,
    responses: { 200: video("the video"), 206: video("the requested range") }, errors: [400, 404, 416],
  },
  {
    method: "delete", path: "/renders/{filename}", operationId: "deleteRender", summary: "Delete a rendered file", tag: "renders", access: "user", params: pathParams("filename"),
    responses: { 200: json(z.object({ deleted: z.literal(true), filename: z.string() }), "deleted") }, errors: [404],
  },
];
