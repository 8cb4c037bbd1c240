// Guards (worker/db/sql-guard.ts) in real D1: a guard goes on only when its condition is true. SQL's third value
// counts as not holding: an ownership guard comparing a column that is NULL (a row without an owner, or no row at
// all) must refuse, where `NOT (NULL)` alone would have let the batch through.
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../worker/db/client.ts";
import { rateLimits } from "../../worker/db/schema/ideas.ts";
import { failedOn, guardQuery, type Guard } from "../../worker/db/sql-guard.ts";

const guardOf = (holds: ReturnType<typeof sql>): Guard => ({ marker: "test_guard", holds, refusal: () => new Error("refused") });

/** Runs the guard alone in a batch: "passed", or "refused" when it failed on its marker. */
async function run(holds: ReturnType<typeof sql>): Promise<"passed" | "refused"> {
  const db = openDb(env.DB);
  try {
    await db.batch([guardQuery(db, guardOf(holds))]);
    return "passed";
  } catch (error) {
    if (failedOn(error, "test_guard")) return "refused";
    throw error;
  }
}

describe("a guard's condition", () => {
  it("goes on when true and refuses when false", async () => {
    expect(await run(sql`1`)).toBe("passed");
    expect(await run(sql`EXISTS (SELECT 1)`)).toBe("passed");
    expect(await run(sql`0`)).toBe("refused");
    expect(await run(sql`1 = 2`)).toBe("refused");
  });

  it("refuses when it is NULL: a compared column that is NULL, or a row that is not there", async () => {
    expect(await run(sql`NULL`)).toBe("refused");
    expect(await run(sql`(SELECT NULL) = 'key'`)).toBe("refused");
    expect(await run(sql`(SELECT 1 WHERE 0) = 1`)).toBe("refused");
  });

  it("refuses the writes batched after it, which then change nothing", async () => {
    const db = openDb(env.DB);
    const marker = `guard-${crypto.randomUUID()}`;
    await expect(
      db.batch([guardQuery(db, guardOf(sql`(SELECT NULL) = 'owner'`)), db.insert(rateLimits).values({ caller: marker, windowStart: 0, count: 1 })]),
    ).rejects.toSatisfy((error: unknown) => failedOn(error, "test_guard"));
    const rows = await db.all(sql`SELECT caller FROM rate_limits WHERE caller = ${marker}`);
    expect(rows).toEqual([]);
  });
});
