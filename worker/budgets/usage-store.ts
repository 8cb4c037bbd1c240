// Reads and writes of a person's render usage and budgets (the usage routes). Usage by day is what render_usage holds
// for the person's accounts (reservations of renders in progress included); budgets are render_budgets' rows.
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { renderBudgets, renderUsage } from "../db/schema/budgets.ts";
import { accountKey, type AccountKind } from "./charge.ts";
import type { UsageRows } from "./usage-view.ts";

/** The person's usage since `firstDay` and every budget they set: one round trip. */
export async function readUsage(db: Db, userId: string, firstDay: string): Promise<UsageRows> {
  const [usage, budgets] = await db.batch([
    db
      .select({ account: renderUsage.account, day: renderUsage.day, seconds: renderUsage.seconds })
      .from(renderUsage)
      .where(and(eq(renderUsage.userId, userId), gte(renderUsage.day, firstDay))),
    db.select({ account: renderBudgets.account, secondsPerDay: renderBudgets.secondsPerDay }).from(renderBudgets).where(eq(renderBudgets.userId, userId)),
  ]);
  return { usage, budgets };
}

/** Sets (a number) or removes (null) the budget of the person's account `kind:id`; the caller checked they own it. */
export async function writeBudget(db: Db, userId: string, account: { kind: AccountKind; id: string }, secondsPerDay: number | null): Promise<void> {
  const key = accountKey(account);
  if (secondsPerDay === null) {
    await db.delete(renderBudgets).where(and(eq(renderBudgets.account, key), eq(renderBudgets.userId, userId)));
    return;
  }
  await db
    .insert(renderBudgets)
    .values({ account: key, userId, secondsPerDay, updatedAt: Date.now() })
    .onConflictDoUpdate({ target: renderBudgets.account, set: { secondsPerDay, updatedAt: Date.now() }, setWhere: sql`${renderBudgets.userId} = ${userId}` });
}
