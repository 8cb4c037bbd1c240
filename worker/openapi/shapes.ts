// Response shapes shared by several resources. Objects are not strict: the API may add fields (docs: "ignore
// fields you do not know"), so a schema names what a client can rely on. Each is built on first use (lazy): the
// document and the tests need them, a request does not.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";

export const isoTime = lazy(() => z.string().describe("ISO 8601 UTC time"));

export const publicUser = lazy(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      avatarUrl: z.string().nullable(),
      provider: z.string(),
      createdAt: isoTime(),
    })
    .meta({ id: "User" }),
);

export const identity = lazy(() =>
  z
    .object({
      user: publicUser(),
      token: z.string().describe("the personal token (stu_…)"),
      baseUrl: z.string(),
      curl: z.string(),
      docsUrl: z.string(),
      storage: z
        .object({
          used: z.number().int().describe("bytes stored: project files and renders"),
          limit: z.number().int().describe("the storage quota in bytes"),
          files: z.number().int().describe("objects stored: files, empty directories and renders"),
          fileLimit: z.number().int().describe("the most objects one user may store"),
        })
        .describe("past the limit a write is a 413 storage_quota_exceeded"),
    })
    .meta({ id: "Identity" }),
);

/** POST /api/me/token/rotate: the new token, shown once. */
export const rotatedToken = lazy(() =>
  z.object({ rotated: z.literal(true), token: z.string(), curl: z.string(), appsRevoked: z.number().int().describe("OAuth grants revoked") }),
);

export const fileEntry = lazy(() =>
  z
    .object({
      path: z.string(),
      size: z.number().int(),
      mtime: isoTime(),
      type: z.enum(["file", "directory"]),
    })
    .meta({ id: "FileEntry" }),
);

export const previewState = lazy(() =>
  z
    .object({
      running: z.boolean(),
      port: z.number().int().optional(),
      url: z.string().optional().describe("the preview server, under its secret"),
    })
    .meta({ id: "PreviewState" }),
);

// The render's public shapes are the contract in core/protocol/render-state.ts, imported where an operation names one.

export const contentLink = lazy(() =>
  z.object({ url: z.string().describe("a capability link on the content origin"), expiresAt: isoTime() }).meta({ id: "ContentLink" }),
);

/** The cursor of the next page, or null on the last one. */
export const nextCursor = lazy(() => z.string().nullable().describe("pass as ?next= for the following page; null on the last page"));

/** A 200 that says what was deleted or revoked. */
export const revoked = lazy(() => z.object({ revoked: z.literal(true), id: z.string() }));

/** GET /api/projects/:slug/files: the recursive listing. */
export const fileList = lazy(() => z.object({ slug: z.string(), files: z.array(fileEntry()) }));
