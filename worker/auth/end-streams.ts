// Telling the rooms of a user's projects that one of the user's credentials ended (a token rotated, a session signed
// out, every OAuth app disconnected), so their open event streams end. Called by each of those paths after its D1
// change committed and BEFORE it answers: once the person sees "rotated" or "signed out", every room told has already
// dropped the streams (nothing written afterwards reaches them) and refuses that credential a new one
// (renders/room/stream-watch.ts). The project list comes from the same D1 batch as the change (projectSlugsOf), so
// the path keeps its one round trip. The fan-out is one Durable Object call per project, ROOMS_AT_ONCE at a time, to
// the newest MAX_ROOMS_TOLD projects: a person with more leaves the older rooms to their backstop, as a room that
// cannot be told is (logged), which ends the streams within seconds anyway (a D1 check every few seconds).
//
// The trade: "the moment" a credential ends is its request's answer. An event broadcast in the milliseconds between
// the D1 commit and a room being told (a write racing the rotation, from another credential) may still reach the
// old stream; anything written once the rotation or sign-out has answered never does. Telling the rooms before the
// commit would close that window too, but the project list would then be a read before the write: a second
// sequential round trip to the primary on every rotation and sign-out, against the one-trip budget.
import { desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { projects } from "../db/schema/projects.ts";
import type { Env } from "../env.ts";
import { logEvent } from "../http/log.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import type { CredentialEnd } from "./stream-credential.ts";

/** The most rooms one credential's end tells; beyond, their backstop ends the streams (a Worker's subrequests are finite). */
export const MAX_ROOMS_TOLD = 500;
const ROOMS_AT_ONCE = 50;

/**
 * The slugs of a user's newest projects, as a statement to batch with the change that ends a credential. `userId`:
 * the id, or an SQL expression that reads it in the same batch (a session's user, read before its row is deleted).
 */
export function projectSlugsOf(db: Db, userId: string | SQL) {
  return db.select({ slug: projects.slug }).from(projects).where(eq(projects.userId, userId)).orderBy(desc(projects.createdAt)).limit(MAX_ROOMS_TOLD);
}

/** Ends the streams of `ends` in the rooms of these projects of the user; how many streams ended. Never throws. */
export async function endStreamsOf(env: Env, userId: string, slugs: string[], ends: CredentialEnd[]): Promise<number> {
  if (ends.length === 0) return 0;
  if (slugs.length >= MAX_ROOMS_TOLD) logEvent("warn", "streams.rooms_left_to_backstop", { told: slugs.length });
  let ended = 0;
  for (let at = 0; at < slugs.length; at += ROOMS_AT_ONCE) {
    const told = await Promise.allSettled(
      slugs.slice(at, at + ROOMS_AT_ONCE).map(async (slug) => {
        const room = roomOf(env, { userId, slug });
        let count = 0;
        for (const end of ends) count += await room.endStreams(end);
        return count;
      }),
    );
    for (const outcome of told) {
      if (outcome.status === "fulfilled") ended += outcome.value;
      else logEvent("error", "streams.end_not_told", { error: outcome.reason, backstop: "room recheck" });
    }
  }
  return ended;
}
