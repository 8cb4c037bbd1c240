// Projects, their files, and share links.
import * as z from "zod";
import { readFileQuery, writeFileQuery } from "../projects/files/schemas.ts";
import { createProjectBody, listProjectsQuery, shareBody } from "../projects/schemas.ts";
import { RenderStateSchema } from "../../core/protocol/render-state.ts";
import { contentLink, fileEntry, isoTime, nextCursor, previewState } from "./shapes.ts";
import { json, pathParams, slugParam, type Operation } from "./operation.ts";


export const projectSummary = z
  .object({
    name: z.string().describe("the slug"),
    displayName: z.string(),
    compositionId: z.string().nullable(),
    duration: z.number().nullable(),
    createdAt: isoTime,
    createdBy: z.string().nullable(),
    preview: previewState,
    render: RenderStateSchema.nullable().describe("the live or last render's state, without the log"),
  })
  .meta({ id: "ProjectSummary" });

const fileParams = pathParams("slug", "path");
const files = z.array(fileEntry);

export const projectOperations: Operation[] = [
  {
    method: "get", path: "/api/projects", operationId: "listProjects", summary: "The caller's projects, newest first (paged with limit and next)", tag: "projects", access: "user", query: listProjectsQuery,
    responses: { 200: json(z.object({ projects: z.array(projectSummary.extend({ contentUrl: z.string() })), next: nextCursor }), "the projects") }, errors: [400],
  },
  {
    method: "post", path: "/api/projects", operationId: "createProject", summary: "Create a project (a starter composition unless html is given)", tag: "projects", access: "user",
    body: { json: createProjectBody, required: true }, headers: z.object({ "Idempotency-Key": z.string().optional() }),
    responses: { 201: json(z.object({ created: z.literal(true), slug: z.string(), project: projectSummary, files, written: z.array(z.string()) }), "created") },
    errors: [400, 409, 413, 415, 422],
  },
  {
    method: "get", path: "/api/projects/{slug}", operationId: "getProject", summary: "A project with meta, files and a one-hour contentUrl", tag: "projects", access: "user", params: slugParam,
    responses: { 200: json(z.object({ project: projectSummary, meta: z.unknown(), files, contentUrl: z.string(), contentExpiresAt: isoTime }), "the project") }, errors: [404],
  },
  {
    method: "delete", path: "/api/projects/{slug}", operationId: "deleteProject", summary: "Delete a project (stops its render and preview)", tag: "projects", access: "user", params: slugParam,
    responses: { 200: json(z.object({ deleted: z.literal(true), slug: z.string() }), "deleted") }, errors: [404],
  },
  {
    method: "post", path: "/api/projects/{slug}/share", operationId: "shareProject", summary: "A read-only link to the project or one of its renders on the content origin", tag: "projects", access: "user", params: slugParam,
    body: { json: shareBody }, responses: { 200: json(contentLink, "the link") }, errors: [400, 404],
  },
  {
    method: "get", path: "/api/projects/{slug}/files", operationId: "listFiles", summary: "Recursive file listing", tag: "files", access: "user", params: slugParam,
    responses: { 200: json(z.object({ slug: z.string(), files }), "the files") }, errors: [404],
  },
  {
    method: "get", path: "/api/projects/{slug}/files/{path}", operationId: "readFile", summary: "Read a file (Range; ?download; active types always as a sandboxed attachment)", tag: "files", access: "user", params: fileParams, query: readFileQuery,
    responses: {
      200: { description: "the file's bytes with its content type", body: { media: "*/*", schema: z.string().meta({ format: "binary" }) } },
      206: { description: "the requested range", body: { media: "*/*", schema: z.string().meta({ format: "binary" }) } },
    },
    errors: [400, 404, 416],
  },
  ...(["put", "post"] as const).map(
    (method): Operation => ({
      method, path: "/api/projects/{slug}/files/{path}", operationId: method === "put" ? "writeFile" : "writeFilePost",
      summary: method === "put" ? "Write a file: the raw bytes, or base64 text with ?encoding=base64; a path ending in / makes a directory" : "Alias of PUT",
      tag: "files", access: "user", params: fileParams, query: writeFileQuery, body: { raw: ["application/octet-stream", "*/*"] },
      responses: { 200: json(z.object({ written: z.literal(true), slug: z.string(), path: z.string(), bytes: z.number().int(), url: z.string() }), "written") },
      errors: [400, 404, 409, 411, 413],
    }),
  ),
  {
    method: "delete", path: "/api/projects/{slug}/files/{path}", operationId: "deleteFile", summary: "Delete a file or directory (index.html is protected)", tag: "files", access: "user", params: fileParams,
    responses: { 200: json(z.object({ deleted: z.literal(true), slug: z.string(), path: z.string() }), "deleted") }, errors: [403, 404],
  },
];
