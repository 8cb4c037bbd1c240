// Public counters. Visitors are anonymous random cookie ids: no IP address or user agent is stored anywhere.
import { sqliteTable, text, integer, primaryKey } from "drizzle-orm/sqlite-core";

export const counters = sqliteTable("counters", {
  name: text("name").primaryKey(),
  value: integer("value").notNull().default(0),
});

/** A visitor exists only once their signed cookie came back, so a client that never returns it mints nobody. */
export const visitors = sqliteTable("visitors", {
  id: text("id").primaryKey(),
  firstSeen: integer("first_seen").notNull(),
  lastSeen: integer("last_seen").notNull(),
  /** Visits separated by 30 minutes or more; a visitor with visits > 1 is returning. */
  visits: integer("visits").notNull().default(1),
});

/** The pages a visitor's views were counted for in the current window: one view per visitor, page and window. */
export const pageViewMarks = sqliteTable(
  "page_view_marks",
  {
    visitorId: text("visitor_id").notNull(),
    page: text("page").notNull(),
    countedAt: integer("counted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.visitorId, t.page] })],
);

/** Every (user, project slug) ever created: animationsCreated counts each once, so create-delete loops add nothing. */
export const createdAnimations = sqliteTable(
  "created_animations",
  {
    userId: text("user_id").notNull(),
    slug: text("slug").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.slug] })],
);
