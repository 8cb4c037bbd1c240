// Response shapes shared by several resources. Objects are not strict: the API may add fields (docs: "ignore
// fields you do not know"), so a schema names what a client can rely on.
import * as z from "zod";

export const isoTime = z.string().describe("ISO 8601 UTC time");

export const publicUser = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    provider: z.string(),
    createdAt: isoTime,
  })
  .meta({ id: "User" });

export const identity = z
  .object({
    user: publicUser,
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
  .meta({ id: "Identity" });

export const fileEntry = z
  .object({
    path: z.string(),
    size: z.number().int(),
    mtime: isoTime,
    type: z.enum(["file", "directory"]),
  })
  .meta({ id: "FileEntry" });

export const previewState = z
  .object({
    running: z.boolean(),
    port: z.number().int().optional(),
    url: z.string().optional().describe("the preview server, under its secret"),
  })
  .meta({ id: "PreviewState" });

// The render's public shapes are the contract in core/protocol/render-state.ts, imported where an operation names one.

export const contentLink = z
  .object({ url: z.string().describe("a capability link on the content origin"), expiresAt: isoTime })
  .meta({ id: "ContentLink" });

/** The cursor of the next page, or null on the last one. */
export const nextCursor = z.string().nullable().describe("pass as ?next= for the following page; null on the last page");
