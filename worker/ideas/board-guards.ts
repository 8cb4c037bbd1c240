// The checks a board write makes, as guards that ride in its batch (worker/db/sql-guard.ts): in order, so the first
// that fails answers (a missing idea is a 404 before its author is asked about).
import { inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { ideaComments, ideaGroups, ideas } from "../db/schema/ideas.ts";
import type { Guard } from "../db/sql-guard.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { IDEA_STATUSES } from "./schemas.ts";

export function ideaExists(id: number): Guard {
  return { marker: "idea_missing", holds: sql`EXISTS (SELECT 1 FROM ${ideas} WHERE ${ideas.id} = ${id})`, refusal: () => notFound("no such idea") };
}

export function commentExists(id: number): Guard {
  return {
    marker: "comment_missing",
    holds: sql`EXISTS (SELECT 1 FROM ${ideaComments} WHERE ${ideaComments.id} = ${id})`,
    refusal: () => notFound("no such comment"),
  };
}

/** The author key of the row must be `key` (or, with `admin`, anyone goes). */
function authored(marker: string, row: SQL, key: string, admin: boolean, message: string): Guard {
  return { marker, holds: admin ? sql`1` : sql`(${row}) = ${key}`, refusal: () => forbidden(message) };
}

export function ideaAuthor(id: number, key: string, action: "edit" | "delete", admin = false): Guard {
  const who = action === "edit" ? "the author" : "the author or an admin";
  return authored("idea_not_author", sql`SELECT ${ideas.author} FROM ${ideas} WHERE ${ideas.id} = ${id}`, key, admin, `only ${who} can ${action} an idea`);
}

export function commentAuthor(id: number, key: string, action: "edit" | "delete", admin = false): Guard {
  const who = action === "edit" ? "the author" : "the author or an admin";
  const row = sql`SELECT ${ideaComments.author} FROM ${ideaComments} WHERE ${ideaComments.id} = ${id}`;
  return authored("comment_not_author", row, key, admin, `only ${who} can ${action} a comment`);
}

/** A 400 for a slug that names no group, so a typo is an error, not an idea filed nowhere. */
export function groupExists(slug: string): Guard {
  return {
    marker: "group_missing",
    holds: sql`EXISTS (SELECT 1 FROM ${ideaGroups} WHERE ${ideaGroups.slug} = ${slug})`,
    refusal: () => badRequest(`invalid group: no group with slug "${slug}"`),
  };
}

/** The statuses one step (or none) away from `to`: open -> building -> shipped, and one step back to undo. */
export function statusesNextTo(to: string): string[] {
  const b = IDEA_STATUSES.indexOf(to as (typeof IDEA_STATUSES)[number]);
  return IDEA_STATUSES.filter((_, a) => b >= 0 && Math.abs(a - b) <= 1);
}

/** The idea's status may move to `to`; refused, the current status is read to name the change asked for. */
export function statusMayBecome(db: Db, id: number, to: string): Guard {
  return {
    marker: "status_step",
    holds: sql`EXISTS (SELECT 1 FROM ${ideas} WHERE ${ideas.id} = ${id} AND ${inArray(ideas.status, statusesNextTo(to))})`,
    refusal: async () => {
      const row = await db.select({ status: ideas.status }).from(ideas).where(sql`${ideas.id} = ${id}`).get();
      if (!row) return notFound("no such idea");
      return conflict(`invalid status change: ${row.status} -> ${to} (one step at a time: open, building, shipped)`, {}, "invalid_status_change");
    },
  };
}
