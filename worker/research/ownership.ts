// Who may change a research record: the person who owns it (the user who created it, or the owner of the bot that
// did — any of that person's credentials acts for them), or an admin. Records from before ownership existed have no
// owner, so only admins may change them. Checked as a guard in the write's own batch (worker/db/sql-guard.ts).
import { sql } from "drizzle-orm";
import { researchRecords } from "../db/schema/ideas.ts";
import type { Guard } from "../db/sql-guard.ts";
import { forbidden } from "../http/errors.ts";

export interface ResearchChanger {
  personId: string;
  admin: boolean;
}

/** The record named `slug`, if there is one, may be changed by `caller`. */
export function changeable(slug: string, caller: ResearchChanger): Guard {
  // `IS`, not `=`: a record without an owner (NULL) is nobody's but the admins'.
  const owned = caller.admin ? sql`1` : sql`${researchRecords.ownerId} IS ${caller.personId}`;
  return {
    marker: "research_not_owner",
    holds: sql`NOT EXISTS (SELECT 1 FROM ${researchRecords} WHERE ${researchRecords.slug} = ${slug} AND NOT (${owned}))`,
    refusal: () => forbidden("only the record's author (the person who created it, or their bots) or an admin can change it"),
  };
}
