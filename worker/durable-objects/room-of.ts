// The handle to a project's ProjectRoom, outside renders/room/: sign-out,
// projects and checks reach rooms too, and a handle needs only env, not the room's code.
import type { Env } from "../env.ts";

/** The ProjectRoom of one (user, project). The name includes the user id, so rooms never cross tenants. */
export function roomOf(env: Env, ref: { userId: string; slug: string }) {
  return env.PROJECT_ROOM.get(env.PROJECT_ROOM.idFromName(`${ref.userId}/${ref.slug}`));
}
