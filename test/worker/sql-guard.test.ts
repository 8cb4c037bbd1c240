// Guards (worker/db/sql-guard.ts) in real D1: a guard goes on only when its condition is true. SQL's third value
// counts as not holding: an ownership guard comparing a column that is NULL (a row without an owner, or no row at
// all) must refuse, where `NOT (NULL)` alone would have let the batch through. Which guard refused is told by its
// marker, matched whole, or, when the error does not name it, by reading the conditions back.
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../worker/db/client.ts";
import { rateLimits } from "../../worker/db/schema/ideas.ts";
import { guardQuery, whichGuardRefused, type Guard } from "../../worker/db/sql-guard.ts";

const guardOf = (holds: ReturnType<typeof sql>, marker = "test_guard"): Guard => ({ marker, holds, refusal: () => new Error("refused") });

/** Runs the guard alone in a batch: "passed", or "refused" when it failed on its marker. */
async function run(holds: ReturnType<typeof sql>): Promise<"passed" | "refused"> {
  const db = openDb(env.DB);
  try {
    await db.batch([guardQuery(db, guardOf(holds))]);
    return "passed";
  } catch (error) {
    if (await whichGuardRefused(db, [guardOf(holds)], error)) return "refused";
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
    ).rejects.toThrow("studio_guard[test_guard]");
    const rows = await db.all(sql`SELECT caller FROM rate_limits WHERE caller = ${marker}`);
    expect(rows).toEqual([]);
  });

  it("is told by its marker whole, never by a marker it is a prefix of", async () => {
    const db = openDb(env.DB);
    // Both hold (the read-back finds neither), so only the message can name one.
    const short = guardOf(sql`1`, "limit");
    const long = guardOf(sql`1`, "limit_wide");
    const failure = await db.batch([guardQuery(db, guardOf(sql`0`, "limit_wide"))]).catch((error: unknown) => error);
    expect(await whichGuardRefused(db, [short, long], failure)).toBe(long);
    expect(await whichGuardRefused(db, [short], failure)).toBeNull();
    // Truncated mid-marker, it names no guard.
    expect(await whichGuardRefused(db, [short, long], new Error("JSON path error near 'studio_guard[limit"))).toBeNull();
  });

  it("is found by reading the conditions back when the error does not name it; none refusing, none is named", async () => {
    const db = openDb(env.DB);
    const first = guardOf(sql`1`, "first");
    const second = guardOf(sql`(SELECT NULL) = 'owner'`, "second");
    const third = guardOf(sql`0`, "third");
    const reworded = new Error("D1_ERROR: a failure in other words");
    expect(await whichGuardRefused(db, [first, second, third], reworded)).toBe(second);
    expect(await whichGuardRefused(db, [first], reworded)).toBeNull();
    // Several of the batch's markers named: the message decides nothing, the values do.
    expect(await whichGuardRefused(db, [first, third], new Error("studio_guard[first] studio_guard[third]"))).toBe(third);
  });
});
