// The D1 side of a render's charge: the budget guards and the reservation that ride in the admission's batch
// (renders/projection.ts insertProjection: one round trip, one transaction, so two renders racing for the last
// seconds of a budget cannot both pass), and the settlement that rides in the end's batch (writeEndedRender), which
// replaces the reservation with what the render actually used, once (the charge row is deleted with it, so the end's
// retries change nothing more).
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rawStatement } from "../db/raw-statement.ts";
import { renderBudgets, renderCharges, renderUsage } from "../db/schema/budgets.ts";
import { renders } from "../db/schema/renders.ts";
import { guardQuery, whichGuardRefused, type Check } from "../db/sql-guard.ts";
import { accountKey, dayOf, nextResetAt, type Account, type BudgetFigure, type BudgetRefused, type RenderCharge } from "./charge.ts";

/** An account's budget in SQL: its own row, else (a user's account) the operator's default; NULL: no budget. */
function limitOf(account: Account, defaultPerDay: number | undefined): SQL {
  const own = sql`(SELECT ${renderBudgets.secondsPerDay} FROM ${renderBudgets} WHERE ${renderBudgets.account} = ${accountKey(account)})`;
  return account.kind === "user" && defaultPerDay !== undefined ? sql`coalesce(${own}, ${defaultPerDay})` : own;
}

const usedOf = (account: Account, day: string) =>
  sql`coalesce((SELECT ${renderUsage.seconds} FROM ${renderUsage} WHERE ${renderUsage.account} = ${accountKey(account)} AND ${renderUsage.day} = ${day}), 0)`;

interface BudgetCheck extends Check {
  account: Account;
}

/** Each account's check: no budget, or seconds left today and the render's seconds to check fit in them. */
function checksOf(charge: RenderCharge, seconds: number, now: number): BudgetCheck[] {
  const day = dayOf(now);
  const check = Math.max(seconds, charge.checkSeconds ?? 0);
  return charge.accounts.map((account, i) => {
    const limit = limitOf(account, charge.userDefault);
    const used = usedOf(account, day);
    return { account, marker: `render_budget_${i}`, holds: sql`${limit} IS NULL OR (${used} < ${limit} AND ${used} + ${check} <= ${limit})` };
  });
}

/** The admission's statements for `charge`: the guards first, then (only when the render's row was inserted) the
 * charge row and each account's reservation. */
export function chargeStatements(db: Db, renderId: string, userId: string, charge: RenderCharge, seconds: number, now: number): D1PreparedStatement[] {
  const day = dayOf(now);
  const admitted = sql`EXISTS (SELECT 1 FROM ${renders} WHERE id = ${renderId})`;
  // The refusal is told by budgetRefusal after the batch failed (it needs the figures), not by the guard itself.
  const guards = checksOf(charge, seconds, now).map((check) => rawStatement(db, guardQuery(db, { ...check, refusal: () => new Error(check.marker) })));
  const keys = charge.accounts.map(accountKey);
  const chargeRow = rawStatement(db, sql`
    INSERT INTO ${renderCharges} (render_id, user_id, day, accounts, reserved)
    SELECT ${renderId}, ${userId}, ${day}, ${JSON.stringify(keys)}, ${seconds} WHERE ${admitted}`);
  const reservations = keys.map((key) => rawStatement(db, sql`
    INSERT INTO ${renderUsage} (account, day, user_id, seconds) SELECT ${key}, ${day}, ${userId}, ${seconds} WHERE ${admitted}
    ON CONFLICT (account, day) DO UPDATE SET seconds = round(seconds + excluded.seconds, 1)`));
  return [...guards, chargeRow, ...reservations];
}

/**
 * Which budget refused a failed admission batch, with its figures read now for the answer (a round trip only then);
 * null when the failure was no budget's (the caller rethrows it).
 */
export async function budgetRefusal(primary: Db, charge: RenderCharge, seconds: number, now: number, err: unknown): Promise<BudgetRefused | null> {
  const refused = await whichGuardRefused(primary, checksOf(charge, seconds, now), err);
  if (!refused) return null;
  const day = dayOf(now);
  const row = await primary
    .select({ used: sql<number>`${usedOf(refused.account, day)}`, limit: sql<number | null>`${limitOf(refused.account, charge.userDefault)}` })
    .from(sql`(SELECT 1)`)
    .get();
  return {
    account: refused.account,
    limit: row?.limit ?? 0,
    used: row?.used ?? 0,
    estimate: Math.max(seconds, charge.checkSeconds ?? 0),
    resetsAt: nextResetAt(now),
  };
}

/**
 * The end's statements: each charged account's reservation replaced by `used` (the render's actual render-seconds;
 * 0 when no node ever took it), then the charge row deleted. A render with no charge row (started before budgets, or
 * settled already: the end's retries) changes nothing.
 */
export function settleStatements(db: Db, renderId: string, used: number): D1PreparedStatement[] {
  const column = (name: "reserved" | "day" | "accounts") => sql`(SELECT ${sql.raw(name)} FROM ${renderCharges} WHERE render_id = ${renderId})`;
  return [
    rawStatement(db, sql`
      UPDATE ${renderUsage} SET seconds = max(0, round(seconds + ${used} - ${column("reserved")}, 1))
      WHERE day = ${column("day")} AND account IN (SELECT value FROM json_each(${column("accounts")}))`),
    rawStatement(db, sql`DELETE FROM ${renderCharges} WHERE render_id = ${renderId}`),
  ];
}

/** Each budget of `charge` with its use today ([] when none applies): one read, which a dry run makes beside its
 * other reads; budget-fit.ts then says whether the render would fit. */
export async function budgetFigures(db: Db, charge: RenderCharge, now: number): Promise<BudgetFigure[]> {
  const day = dayOf(now);
  const columns = Object.fromEntries(
    charge.accounts.flatMap((account, i) => [
      [`used${i}`, sql<number>`${usedOf(account, day)}`.as(`used${i}`)],
      [`limit${i}`, sql<number | null>`${limitOf(account, charge.userDefault)}`.as(`limit${i}`)],
    ]),
  );
  const row = ((await db.select(columns).from(sql`(SELECT 1)`).get()) ?? {}) as Record<string, number | null>;
  return charge.accounts.flatMap((account, i) => {
    const limit = row[`limit${i}`];
    return limit === null || limit === undefined ? [] : [{ kind: account.kind, id: account.id, limit, used: row[`used${i}`] ?? 0 }];
  });
}
