// Project rows: the summary fields a listing needs without touching R2. Files themselves live in R2.
import { sqliteTable, text, integer, real, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./identity.ts";

export const projects = sqliteTable(
  "projects",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    displayName: text("display_name").notNull(),
    compositionId: text("composition_id").notNull(),
    duration: real("duration").notNull(),
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("projects_user_slug").on(t.userId, t.slug)],
);
