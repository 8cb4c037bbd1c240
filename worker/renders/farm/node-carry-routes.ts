// Incremental re-render through the node protocol (worker/renders/carry.ts): a render job uploads its carry manifest
// beside its output, and reads the previous render it was handed at its claim (its output and manifest). Only the
// node holding the running render job, and only the one render the claim named: never another project's or user's.
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { Context } from "hono";
import { ManifestResponseSchema, MAX_MANIFEST_BYTES } from "../../../core/protocol/node-routes.ts";
import { FORMAT_CONTENT_TYPES, type Format } from "../../../core/render/render-options.ts";
import { openDb } from "../../db/client.ts";
import { renders } from "../../db/schema/renders.ts";
import type { AppEnv } from "../../http/context.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { jobIdParams } from "../../http/path-params.ts";
import { route } from "../../http/route.ts";
import { serveObject } from "../../http/serve-object.ts";
import { json, media } from "../../openapi/operation.ts";
import { manifestKey, renderKey } from "../../storage/keys.ts";
import { carryChoiceOf, MANIFEST_CONTENT_TYPE as MANIFEST_TYPE } from "../carry.ts";
import { heldJob, runningJob } from "./node-caller.ts";
import { storeBesideRender } from "./node-upload-routes.ts";

/** The previous render the running render job `id` was handed at its claim: still the same project's, done, not deleted. */
async function handedRender(c: Context<AppEnv>, id: string) {
  const job = await runningJob(c, id);
  const carryFrom = job.kind === "render" ? carryChoiceOf(job.result) : null;
  if (!carryFrom) throw notFound("this job was handed no previous render");
  const row = await openDb(c.env.DB).query.renders.findFirst({ where: eq(renders.id, carryFrom) });
  if (!row || row.userId !== job.userId || row.slug !== job.slug || row.status !== "done" || row.deletedAt) throw notFound("the previous render is gone");
  return row;
}

export const nodeCarryRoutes = new Hono<AppEnv>()
  .put(
    "/jobs/:id/manifest",
    route(
      {
        operationId: "nodeUploadManifest", summary: "Upload a finished render's carry manifest (a render job), what its next render carries from", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { raw: [MANIFEST_TYPE] } }),
        responses: () => ({ 200: json(ManifestResponseSchema, "stored") }),
        errors: [404, 409, 411, 413],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.status !== "running") throw new ApiError(409, "the job is no longer running");
        // A split render's segments and join leave no manifest: only a render done whole on one node carries.
        if (job.kind !== "render") throw notFound("only a render job leaves a manifest");
        const size = await storeBesideRender(c, { userId: job.userId, slug: job.slug, renderId: job.id }, { keyOf: manifestKey, type: MANIFEST_TYPE, maxBytes: MAX_MANIFEST_BYTES, what: "a manifest" });
        return c.json({ ok: true, size });
      },
    ),
  )
  .get(
    "/jobs/:id/previous/output",
    route(
      { operationId: "nodeReadPreviousOutput", summary: "The output of the previous render the render job was handed to carry from", tag: "node", access: "node", request: () => ({ params: jobIdParams() }), responses: () => ({ 200: media("application/octet-stream", "the file's bytes", true) }), errors: [404] },
      async (c, input) => {
        const row = await handedRender(c, input.param("id"));
        return serveObject(c.env.FILES, renderKey(row.userId, row.filename), c.req.raw, {
          contentType: FORMAT_CONTENT_TYPES[row.format as Format] ?? "application/octet-stream",
          notFoundMessage: "the previous render's output is gone",
        });
      },
    ),
  )
  .get(
    "/jobs/:id/previous/manifest",
    route(
      { operationId: "nodeReadPreviousManifest", summary: "The carry manifest of the previous render the render job was handed", tag: "node", access: "node", request: () => ({ params: jobIdParams() }), responses: () => ({ 200: media(MANIFEST_TYPE, "the manifest") }), errors: [404] },
      async (c, input) => {
        const row = await handedRender(c, input.param("id"));
        return serveObject(c.env.FILES, manifestKey(row.userId, row.filename), c.req.raw, { contentType: MANIFEST_TYPE, notFoundMessage: "the previous render's manifest is gone" });
      },
    ),
  );
