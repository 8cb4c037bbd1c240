// Research records in D1. JSON fields are stored as text and parsed back; the record has exactly the seed's fields.
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import { researchRecords } from "../db/schema/ideas.ts";
import { conflict, notFound } from "../http/errors.ts";
import type { researchBody } from "./schemas.ts";

type Row = typeof researchRecords.$inferSelect;
type Input = z.output<typeof researchBody>;

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function researchRecord(row: Row) {
  const lines = parseJson(row.lines);
  return {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    name: row.name,
    summary: row.summary,
    body_md: row.bodyMd,
    lines: Array.isArray(lines) ? lines.filter((l): l is string => typeof l === "string") : [],
    author: row.author,
    sources: parseJson(row.sources),
    related: parseJson(row.related),
    verified_at: row.verifiedAt,
    updated_at: row.updatedAt,
    cover_url: row.coverUrl,
  };
}

function columnsOf(input: Input, author: string) {
  return {
    slug: input.slug,
    kind: input.kind,
    name: input.name,
    summary: input.summary,
    bodyMd: input.body_md,
    lines: JSON.stringify(input.lines),
    author: input.author ?? author,
    sources: input.sources === null || input.sources === undefined ? null : JSON.stringify(input.sources),
    related: input.related === null || input.related === undefined ? null : JSON.stringify(input.related),
    verifiedAt: input.verified_at,
    coverUrl: input.cover_url,
    updatedAt: new Date().toISOString(),
  };
}

export async function listResearch(db: Db, kind: string | undefined) {
  const rows = await db
    .select()
    .from(researchRecords)
    .where(kind ? eq(researchRecords.kind, kind) : undefined)
    .orderBy(desc(researchRecords.updatedAt))
    .all();
  return rows.map(researchRecord);
}

export async function getResearch(db: Db, slug: string) {
  const row = await db.select().from(researchRecords).where(eq(researchRecords.slug, slug)).get();
  if (!row) throw notFound("no such research record");
  return researchRecord(row);
}

export async function createResearch(db: Db, input: Input, author: string) {
  const rows = await db.insert(researchRecords).values(columnsOf(input, author)).onConflictDoNothing().returning();
  const row = rows[0];
  if (!row) throw conflict("a research record with this slug exists: update it with PUT", { exists: true });
  return researchRecord(row);
}

/** Creates or replaces the record at `input.slug`; `created` says which. The id survives a replace. */
export async function putResearch(db: Db, input: Input, author: string) {
  const values = columnsOf(input, author);
  const existing = await db.select({ id: researchRecords.id }).from(researchRecords).where(eq(researchRecords.slug, input.slug)).get();
  const { slug: _slug, ...update } = values;
  const rows = await db
    .insert(researchRecords)
    .values(values)
    .onConflictDoUpdate({ target: researchRecords.slug, set: update })
    .returning();
  const row = rows[0];
  if (!row) throw new Error("research upsert returned nothing");
  return { created: !existing, record: researchRecord(row) };
}
