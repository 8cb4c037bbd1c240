import type { Env } from "../../env.ts";
import type { ProjectRef } from "../../projects/files/keys.ts";

/** The ProjectRoom of one (user, project). The name includes the user id, so rooms never cross tenants. */
export function roomOf(env: Env, ref: ProjectRef) {
  return env.PROJECT_ROOM.get(env.PROJECT_ROOM.idFromName(`${ref.userId}/${ref.slug}`));
}
