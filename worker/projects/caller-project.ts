// The project a request names (by the slug its route declared, projectSlugParams in worker/http/path-params.ts),
// checked to exist and to belong to the caller (another user's answers as missing).
import type { Context } from "hono";
import { currentUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import type { ProjectRef } from "../storage/keys.ts";
import type { AppEnv } from "../http/context.ts";
import { requireProject } from "./store.ts";

export async function callerProject(c: Context<AppEnv>, slug: string): Promise<ProjectRef> {
  const ref = { userId: currentUser(c).id, slug };
  await requireProject(openDb(c.env.DB), ref);
  return ref;
}
