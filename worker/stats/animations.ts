// animationsCreated counts each (user, project slug) once, ever: deleting a project and creating it again, in a
// loop or not, is not a new animation.
import type { Db } from "../db/client.ts";
import { createdAnimations } from "../db/schema/stats.ts";
import { bumpCounter } from "./counters.ts";

export async function countAnimationCreated(db: Db, userId: string, slug: string, now = Date.now()): Promise<void> {
  const first = await db.insert(createdAnimations).values({ userId, slug, createdAt: now }).onConflictDoNothing().returning({ slug: createdAnimations.slug });
  if (first.length > 0) await bumpCounter(db, "animationsCreated");
}
