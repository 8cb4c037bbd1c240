import { drizzle } from "drizzle-orm/d1";
import * as identity from "./schema/identity.ts";
import * as ideas from "./schema/ideas.ts";
import * as projects from "./schema/projects.ts";
import * as renders from "./schema/renders.ts";
import * as stats from "./schema/stats.ts";

export const schema = { ...identity, ...projects, ...renders, ...stats, ...ideas };

export function openDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
export type Db = ReturnType<typeof openDb>;
