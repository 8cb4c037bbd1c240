// The D1 reads capabilities need: the owner's token nonce (the binding that token rotation changes) and the one
// project or render a capability names, by row id.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiTokens } from "../db/schema/identity.ts";
import { projects } from "../db/schema/projects.ts";
import { renders } from "../db/schema/renders.ts";
import { isDownloadableRow } from "../renders/store.ts";
import type { CapabilityKind } from "./capability-token.ts";

/** The owner's binding as a query that can join a D1 batch (one row, or none). */
export function ownerBindingQuery(db: Db, userId: string) {
  return db.select({ nonce: apiTokens.nonce }).from(apiTokens).where(eq(apiTokens.userId, userId)).limit(1);
}

export async function ownerBinding(db: Db, userId: string): Promise<string | null> {
  return (await ownerBindingQuery(db, userId))[0]?.nonce ?? null;
}

export interface ProjectTarget {
  kind: "project";
  userId: string;
  slug: string;
  binding: string;
}

export interface RenderTarget {
  kind: "render";
  userId: string;
  filename: string;
  format: string;
  /** False once the render was deleted or if it never finished: the link then finds nothing. */
  available: boolean;
  binding: string;
}

/** The row a capability names, with its owner's binding, in one query; null when there is no such row. */
export async function findTarget(db: Db, kind: CapabilityKind, id: string): Promise<ProjectTarget | RenderTarget | null> {
  if (kind === "project") {
    const row = await db
      .select({ userId: projects.userId, slug: projects.slug, binding: apiTokens.nonce })
      .from(projects)
      .innerJoin(apiTokens, eq(apiTokens.userId, projects.userId))
      .where(eq(projects.id, id))
      .get();
    return row ? { kind, ...row } : null;
  }
  const row = await db
    .select({ userId: renders.userId, filename: renders.filename, format: renders.format, status: renders.status, deletedAt: renders.deletedAt, binding: apiTokens.nonce })
    .from(renders)
    .innerJoin(apiTokens, eq(apiTokens.userId, renders.userId))
    .where(eq(renders.id, id))
    .get();
  if (!row) return null;
  const { status, deletedAt, ...rest } = row;
  return { kind, ...rest, available: isDownloadableRow({ status, deletedAt }) };
}
