// Idea groups: created by admins, used to file and filter ideas.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { BoardWrite } from "./board-batch.ts";
import { ideaGroups, ideas } from "../db/schema/ideas.ts";
import { badRequest, conflict } from "../http/errors.ts";

export interface GroupRecord {
  slug: string;
  name: string;
  ideas: number;
  createdAt: string;
}

export async function listGroups(db: Db): Promise<GroupRecord[]> {
  const rows = await db
    .select({
      slug: ideaGroups.slug,
      name: ideaGroups.name,
      createdAt: ideaGroups.createdAt,
      ideas: sql<number>`(SELECT count(*) FROM ${ideas} WHERE ${ideas.groupSlug} = ${ideaGroups.slug})`,
    })
    .from(ideaGroups)
    .orderBy(ideaGroups.name)
    .all();
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
}

export async function createGroup({ db, batch }: BoardWrite, slug: string, name: string): Promise<GroupRecord> {
  const createdAt = Date.now();
  const [inserted] = await batch([db.insert(ideaGroups).values({ slug, name, createdAt }).onConflictDoNothing().returning()]);
  if (inserted.length === 0) throw conflict("group already exists", { exists: true }, "already_exists");
  return { slug, name, ideas: 0, createdAt: new Date(createdAt).toISOString() };
}

/** A 400 for a slug that names no group, so a typo in ?group= or a body is an error, not an empty result. */
export async function requireGroup(db: Db, slug: string): Promise<void> {
  const row = await db.select({ slug: ideaGroups.slug }).from(ideaGroups).where(eq(ideaGroups.slug, slug)).get();
  if (!row) throw badRequest(`invalid group: no group with slug "${slug}"`);
}
