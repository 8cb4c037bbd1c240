// Who a render is charged to and on which day (issue 34, point 4). Pure: the route names the caller's accounts
// (caller-accounts.ts), the admission reserves on them (charge-statements.ts), the end replaces the reservation.
//
// Every render is charged to its user's account (whatever credential started it: the user's budget counts all of
// them) and to the account of the credential that started it: the personal token, a bot key or an OAuth grant. A
// dashboard session has no account of its own. Days are UTC days: a budget resets at the next UTC midnight.

export type AccountKind = "user" | "token" | "bot" | "grant";

export const ACCOUNT_KINDS: readonly AccountKind[] = ["user", "token", "bot", "grant"];

export interface Account {
  kind: AccountKind;
  id: string;
  /** How a refusal names it to a person ("your daily budget", `bot key "nightly"`). */
  label: string;
}

/** What a render carries to its admission: the accounts charged and, for a batch's first row, the seconds that must
 * fit (the whole batch's estimate) when more than its own reservation. */
export interface RenderCharge {
  accounts: Account[];
  /** The operator's default budget of a user (RENDER_SECONDS_PER_DAY) as the request's configuration had it. */
  userDefault?: number;
  checkSeconds?: number;
}

/** The key of an account in D1 (render_usage, render_budgets, render_charges). */
export const accountKey = (account: Pick<Account, "kind" | "id">) => `${account.kind}:${account.id}`;

/** The account a key names; null for a key of no known kind. */
export function accountOfKey(key: string): { kind: AccountKind; id: string } | null {
  const at = key.indexOf(":");
  const kind = key.slice(0, at) as AccountKind;
  return at > 0 && ACCOUNT_KINDS.includes(kind) ? { kind, id: key.slice(at + 1) } : null;
}

const DAY_MS = 86_400_000;

/** The UTC day of `now`, as `YYYY-MM-DD`. */
export const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

/** The next UTC midnight after `now`: when today's usage stops counting. */
export const nextResetAt = (now: number) => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

/** The `count` UTC days up to and including `now`'s, oldest first. */
export function lastDays(now: number, count: number): string[] {
  const today = Math.floor(now / DAY_MS);
  return Array.from({ length: count }, (_, i) => dayOf((today - count + 1 + i) * DAY_MS));
}

/** A render's reservation: its quote's estimate (unknown, 0: the render is then admitted only while the account
 * has seconds left, and its actual use is charged when it ends). */
export const reservationOf = (quote: { renderSeconds: number | null } | undefined) => Math.max(0, quote?.renderSeconds ?? 0);

/** The budget a render was refused by: which account, its limit and use today, the render's estimate, the reset. */
export interface BudgetRefused {
  account: Account;
  limit: number;
  used: number;
  estimate: number;
  resetsAt: number;
}

/** A budget that applies to a caller, with its use today. */
export interface BudgetFigure {
  kind: AccountKind;
  id: string;
  limit: number;
  used: number;
}

const tenths = (n: number) => Math.round(n * 10) / 10;

/** Whether `seconds` more would fit every budget now (the admission's own rule, charge-statements.ts), for a dry run. */
export function budgetFit(figures: readonly BudgetFigure[], seconds: number, now: number) {
  const fits = figures.every((b) => b.used < b.limit && b.used + seconds <= b.limit);
  const budgets = figures.map((b) => ({ ...b, used: tenths(b.used), left: tenths(Math.max(0, b.limit - b.used)) }));
  return { fits, budgets, resetsAt: new Date(nextResetAt(now)).toISOString() };
}
