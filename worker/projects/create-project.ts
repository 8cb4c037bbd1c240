// Creating a project: validate everything first (the storage quota included), claim the slug in D1, then write the
// files. If a write fails the files already written and the row are removed, so a failed create leaves nothing
// behind.
import { checkProjectPath } from "../../core/paths/project-path.ts";
import { slugify } from "../../core/paths/slugify.ts";
import { contentTypeFor } from "../../core/http/content-type.ts";
import { openDb } from "../db/client.ts";
import type { Env } from "../env.ts";
import { deleteFolder } from "./files/delete-files.ts";
import { storeAllWithinQuota } from "./files/storage-usage.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import { badRequest, conflict } from "../http/errors.ts";
import { loadCompositionReaders } from "./load-composition-readers.ts";
import { deleteProjectRow, insertProject, type ProjectRow } from "./store.ts";
import type { CreateProjectBody } from "./schemas.ts";
import { logEvent } from "../http/log.ts";

export const DEFAULT_DURATION = 6;
const encoder = new TextEncoder();

export function hyperframesConfig(slug: string) {
  return { name: slug, entry: "index.html", width: 1920, height: 1080, fps: 30 };
}

export async function createProject(env: Env, userId: string, body: CreateProjectBody) {
  const db = openDb(env.DB);
  const bucket = env.FILES;
  const slug = slugify(body.name);
  if (!slug) throw badRequest("invalid name: it must contain at least one letter or digit");
  const extra = new Map<string, string>();
  for (const [raw, content] of Object.entries(body.files ?? {})) {
    const check = checkProjectPath(raw);
    if (!check.ok) throw badRequest(`invalid files key ${JSON.stringify(raw)}: ${check.error}`);
    if (check.isDirectory) throw badRequest(`invalid files key ${JSON.stringify(raw)}: give a file path, not a directory`);
    extra.set(check.path, content);
  }
  if (body.html !== undefined && extra.has("index.html")) {
    throw badRequest("give index.html either as html or in files, not both");
  }
  const { readCompositionMeta, starterComposition } = await loadCompositionReaders();
  const duration = body.duration ?? DEFAULT_DURATION;
  const html =
    body.html ?? extra.get("index.html") ?? starterComposition({ compositionId: slug, title: body.name, duration });
  extra.delete("index.html");
  const meta = readCompositionMeta(html);
  const createdAt = Date.now();
  const row: ProjectRow = {
    id: crypto.randomUUID(),
    userId,
    slug,
    displayName: body.name.trim(),
    compositionId: meta.compositionId ?? slug,
    duration: meta.duration ?? duration,
    createdBy: body.createdBy ?? null,
    createdAt,
  };
  const ref: ProjectRef = { userId, slug };
  const files = new Map<string, Uint8Array>(
    [
      ["index.html", html],
      ["meta.json", JSON.stringify({ id: slug, name: row.displayName, createdAt: new Date(createdAt).toISOString() }, null, 2) + "\n"],
      ["hyperframes.json", JSON.stringify(hyperframesConfig(slug), null, 2) + "\n"],
      ...extra,
    ].map(([path, text]) => [path!, encoder.encode(text)]),
  );
  // The files and the empty assets/ directory, admitted against the quota together before the slug is claimed.
  const objects = [...[...files].map(([path, content]) => ({ key: fileKey(ref, path), bytes: content.byteLength })), { key: fileKey(ref, "assets/"), bytes: 0 }];
  await storeAllWithinQuota(env, userId, objects, async () => {
    if (!(await insertProject(db, row))) throw conflict(`project ${slug} already exists`, {}, "project_exists");
    try {
      await Promise.all([
        ...[...files].map(([path, content]) =>
          bucket.put(fileKey(ref, path), content, { httpMetadata: { contentType: contentTypeFor(path) } }),
        ),
        bucket.put(fileKey(ref, "assets/"), new Uint8Array(0)),
      ]);
    } catch (err) {
      // The create's own error is what the caller gets; files left behind are logged (and counted by the ledger's
      // next reconciliation), never a second error over the first.
      await deleteFolder(env, ref).catch((cleanup: unknown) => logEvent("error", "projects.create_cleanup_failed", { error: cleanup, left: "starter files" }));
      await deleteProjectRow(db, ref);
      throw err;
    }
  });
  return { row, paths: [...files.keys()] };
}
