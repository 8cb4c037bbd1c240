// Telling the rooms of a user's projects that one of the user's credentials ended (a token rotated, a session signed
// out, every OAuth app disconnected), so their open event streams end. Called by each of those paths after its D1
// change committed and BEFORE it answers: once the person sees "rotated" or "signed out", every room has already
// dropped the streams (nothing written afterwards reaches them) and refuses that credential a new one
// (renders/room/stream-watch.ts). The project list comes from the same D1 batch as the change (usersProjectSlugs),
// so the path keeps its one round trip; the fan-out is one call per project, in parallel. A room that cannot be told
// is logged and left to its backstop (a D1 check every few seconds), which ends the stream anyway.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { projects } from "../db/schema/projects.ts";
import type { Env } from "../env.ts";
import { logEvent } from "../http/log.ts";
import { roomOf } from "../renders/room/room-of.ts";
import type { CredentialEnd } from "./stream-credential.ts";

/** The slugs of a user's projects, as a statement to batch with the change that ends a credential. */
export function usersProjectSlugs(db: Db, userId: string) {
  return db.select({ slug: projects.slug }).from(projects).where(eq(projects.userId, userId));
}

/** Ends the streams of `ends` in every room of the user's projects; how many streams ended. */
export async function endStreamsOf(env: Env, userId: string, slugs: string[], ends: CredentialEnd[]): Promise<number> {
  if (ends.length === 0) return 0;
  const told = await Promise.allSettled(
    slugs.map(async (slug) => {
      const room = roomOf(env, { userId, slug });
      let ended = 0;
      for (const end of ends) ended += await room.endStreams(end);
      return ended;
    }),
  );
  let ended = 0;
  for (const outcome of told) {
    if (outcome.status === "fulfilled") ended += outcome.value;
    else logEvent("error", "streams.end_not_told", { error: outcome.reason, backstop: "room recheck" });
  }
  return ended;
}
