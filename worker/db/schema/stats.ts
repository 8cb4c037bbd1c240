// Public counters. Visitors are anonymous random cookie ids: no IP address or user agent is stored anywhere.
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

export const counters = sqliteTable("counters", {
  name: text("name").primaryKey(),
  value: integer("value").notNull().default(0),
});

export const visitors = sqliteTable("visitors", {
  id: text("id").primaryKey(),
  firstSeen: integer("first_seen").notNull(),
  lastSeen: integer("last_seen").notNull(),
  /** Visits separated by 30 minutes or more; a visitor with visits > 1 is returning. */
  visits: integer("visits").notNull().default(1),
});
