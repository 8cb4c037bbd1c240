// A board write in one round trip to D1's primary: the rate-limit spend (rate-limit.ts) and the checks the write
// needs (guards, worker/db/sql-guard.ts) ride in the same batch as the write, and the credential check rides in front
// of them all (worker/auth/gated-d1.ts). Before, a write paid the spend, then read what it checks, then wrote: three
// trips, 450 ms for an agent 150 ms from the primary.
//
// `requireWriter` leaves the request's spend owed; the route's first board batch pays it. A batch that fails (a guard
// refused, the limit passed) rolls the spend back with everything else: a refused write changes nothing, its spend
// included. It costs the studio what a read costs, and reads are not limited either; the refused caller pays no
// second trip for it (as long as the error names the guard, as SQLite's does today: worker/db/sql-guard.ts).
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Context } from "hono";
import { openDb, type Db } from "../db/client.ts";
import { guardQuery, whichGuardRefused, type Guard } from "../db/sql-guard.ts";
import type { AppEnv } from "../http/context.ts";
import { logEvent } from "../http/log.ts";
import { rateLimited, spendCheck, spendQuery, type RateLimit } from "./rate-limit.ts";

interface OwedSpend {
  caller: string;
  rule: RateLimit;
}

const owed = new WeakMap<Request, OwedSpend>();

/** Leaves one write for `caller` to be counted by the request's first board batch. */
export function oweSpend(c: Context<AppEnv>, caller: string, rule: RateLimit): void {
  owed.set(c.req.raw, { caller, rule });
}

/**
 * After the route: a write answered 2xx must have gone through a board batch, which paid its spend. One that did not
 * escaped the limit, a bug of that route: logged as an error, so it shows.
 */
export function checkSpent(c: Context<AppEnv>): void {
  const spend = owed.get(c.req.raw);
  owed.delete(c.req.raw);
  if (spend && c.res.status < 300) logEvent("error", "ideas.write_not_counted", { route: c.req.routePath, status: c.res.status });
}

type Batch = readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/** A request's board writes: its write session (worker/db/read-session.ts) and the batch that pays for a write. */
export interface BoardWrite {
  db: Db;
  /**
   * Runs `queries` as one D1 batch (one transaction) after `guards`, carrying the request's owed rate-limit spend.
   * Past the limit nothing is written and the answer is the limit's 429; a guard that does not hold writes nothing
   * and throws its refusal.
   */
  batch<T extends Batch>(queries: T, guards?: Guard[]): Promise<BatchResponse<T>>;
}

export function boardWrite(c: Context<AppEnv>, db: Db): BoardWrite {
  return {
    db,
    async batch<T extends Batch>(queries: T, guards: Guard[] = []): Promise<BatchResponse<T>> {
      const spend = owed.get(c.req.raw);
      owed.delete(c.req.raw);
      const now = Date.now();
      const head = [...(spend ? [spendQuery(db, spend.caller, spend.rule, now)] : []), ...guards.map((g) => guardQuery(db, g))];
      try {
        const results = await db.batch([...head, ...queries] as unknown as T);
        return results.slice(head.length) as unknown as BatchResponse<T>;
      } catch (err) {
        // The checks in batch order: the spend's, then the guards'. Read back, if need be, from the primary itself
        // (the request's binding, not its session, which a replica may answer).
        const checks: Guard[] = [...(spend ? [{ ...spendCheck(spend.caller, spend.rule, now), refusal: () => rateLimited(spend.rule, now) }] : []), ...guards];
        const refused = await whichGuardRefused(openDb(c.env.DB), checks, err);
        if (!refused) throw err;
        throw await refused.refusal();
      }
    },
  };
}
