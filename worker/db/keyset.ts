// Keyset paging for lists ordered newest first by (time, id): the rows strictly after a page's last one.
import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export interface Keyset {
  at: number;
  id: string;
}

/** Rows after `position` in (time desc, id desc) order; no condition on the first page. */
export function afterKeyset(time: SQLiteColumn, id: SQLiteColumn, position: Keyset | null): SQL | undefined {
  if (!position) return undefined;
  return or(lt(time, position.at), and(eq(time, position.at), lt(id, position.id)));
}

/** The matching ORDER BY. */
export const newestFirst = (time: SQLiteColumn, id: SQLiteColumn) => [desc(time), desc(id)];
