// Render budgets (issue 34, point 4): render-seconds counted per account and UTC day, the budgets set on accounts, and
// what each render in progress reserved. An account is who a render is charged to, written
// "<kind>:<id>": `user:<userId>` (every render of the user, whatever credential started it), `token:<userId>` (the
// user's personal token: one per user, so its id is the user's), `bot:<botId>`, `grant:<grantId>` (an OAuth grant).
import { sqliteTable, text, integer, real, primaryKey, index } from "drizzle-orm/sqlite-core";
import { users } from "./identity.ts";

/** Render-seconds charged to an account on a UTC day (`YYYY-MM-DD`): reservations of renders in progress included. */
export const renderUsage = sqliteTable(
  "render_usage",
  {
    account: text("account").notNull(),
    day: text("day").notNull(),
    /** The owner of the account, for listing a person's usage in one query. */
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    seconds: real("seconds").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.account, t.day] }), index("render_usage_user_day").on(t.userId, t.day)],
);

/** A budget set on an account (a user's own, a bot key's, a grant's), in render-seconds per UTC day. A user without
 * a row has the operator's default (RENDER_SECONDS_PER_DAY); a bot key or a grant without one has no budget. */
export const renderBudgets = sqliteTable(
  "render_budgets",
  {
    account: text("account").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    secondsPerDay: real("seconds_per_day").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("render_budgets_user").on(t.userId)],
);

/** What a render in progress reserved when it was admitted (its quote's estimate), on which accounts and day. Its
 * end replaces the reservation with its actual use and deletes the row, so the table holds renders in progress only. */
export const renderCharges = sqliteTable("render_charges", {
  renderId: text("render_id").primaryKey(),
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  day: text("day").notNull(),
  /** JSON array of the account keys charged. */
  accounts: text("accounts").notNull(),
  reserved: real("reserved").notNull(),
});
