// Named counters for the public stats (animationsCreated, pageViews, rendersCompleted).
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { counters } from "../db/schema/stats.ts";

export type CounterName = "animationsCreated" | "pageViews" | "rendersCompleted";

export async function bumpCounter(db: Db, name: CounterName, by = 1): Promise<void> {
  await bumpCounterQuery(db, name, by);
}

/** bumpCounter as a query that can join a D1 batch. */
export function bumpCounterQuery(db: Db, name: CounterName, by = 1) {
  return db
    .insert(counters)
    .values({ name, value: by })
    .onConflictDoUpdate({ target: counters.name, set: { value: sql`${counters.value} + ${by}` } });
}
