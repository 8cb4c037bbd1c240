// GET /api/usage's answer from the rows read (usage-store.ts) and the person's named accounts. Pure.
import { accountKey, accountOfKey, dayOf, lastDays, nextResetAt, type AccountKind } from "./charge.ts";
import { USAGE_DAYS } from "./shapes.ts";


/** What usage-store.ts reads: the person's usage rows since the first day shown, and the budgets they set. */
export interface UsageRows {
  usage: { account: string; day: string; seconds: number }[];
  budgets: { account: string; secondsPerDay: number }[];
}

/** One of the person's accounts as the caller names it: the user, the personal token, a bot key, a connected app. */
export interface NamedAccount {
  kind: AccountKind;
  id: string;
  name: string;
}

const NAME_OF_GONE: Record<AccountKind, string> = { user: "you", token: "personal token", bot: "a revoked bot key", grant: "a disconnected app" };

export function usageView(rows: UsageRows, named: NamedAccount[], operatorDefault: number | undefined, now: number) {
  const dates = lastDays(now, USAGE_DAYS);
  const today = dayOf(now);
  const byKey = new Map<string, Map<string, number>>();
  for (const row of rows.usage) {
    const days = byKey.get(row.account) ?? new Map<string, number>();
    byKey.set(row.account, days.set(row.day, row.seconds));
  }
  const own = new Map(rows.budgets.map((b) => [b.account, b.secondsPerDay]));
  // Accounts that used seconds but are gone (a revoked bot key, a disconnected app) are listed too: their use counted.
  const known = new Set(named.map(accountKey));
  const gone = [...byKey.keys()].filter((key) => !known.has(key)).flatMap((key) => {
    const account = accountOfKey(key);
    return account ? [{ ...account, name: NAME_OF_GONE[account.kind], gone: true }] : [];
  });
  const tenths = (n: number) => Math.round(n * 10) / 10;
  const accounts = [...named.map((account) => ({ ...account, gone: false })), ...gone].map((account) => {
    const key = accountKey(account);
    const days = byKey.get(key);
    const budget = own.get(key) ?? (account.kind === "user" ? (operatorDefault ?? null) : null);
    const usedToday = tenths(days?.get(today) ?? 0);
    return {
      kind: account.kind,
      id: account.id,
      name: account.name,
      gone: account.gone,
      budget,
      budgetSource: own.has(key) ? ("own" as const) : budget === null ? null : ("operator" as const),
      usedToday,
      left: budget === null ? null : tenths(Math.max(0, budget - usedToday)),
      days: dates.map((date) => ({ date, renderSeconds: tenths(days?.get(date) ?? 0) })),
    };
  });
  return { today, resetsAt: new Date(nextResetAt(now)).toISOString(), operatorDefault: operatorDefault ?? null, accounts };
}
