// Research records in D1. JSON fields are stored as text and parsed back; the record has exactly the seed's fields.
// `author` and `owner_id` are written once, at creation, from the caller; updates never change them.
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import { researchRecords } from "../db/schema/ideas.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { mayChangeResearch, type ResearchChanger } from "./ownership.ts";
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

/** The creator of a new record, taken from the caller. */
export interface ResearchCreator {
  author: string;
  ownerId: string;
}

/** The body may repeat the author (a record read and written back) but never change it. */
function keepAuthor(input: Input, author: string): void {
  if (input.author !== undefined && input.author !== author) {
    throw badRequest(`invalid author: it is set by the server to the record's creator ("${author}") and cannot be changed`);
  }
}

function contentOf(input: Input) {
  return {
    kind: input.kind,
    name: input.name,
    summary: input.summary,
    bodyMd: input.body_md,
    lines: JSON.stringify(input.lines),
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

export async function findResearchRow(db: Db, slug: string): Promise<Row | null> {
  return (await db.select().from(researchRecords).where(eq(researchRecords.slug, slug)).get()) ?? null;
}

export async function createResearch(db: Db, input: Input, creator: ResearchCreator) {
  keepAuthor(input, creator.author);
  const rows = await db
    .insert(researchRecords)
    .values({ slug: input.slug, ...contentOf(input), author: creator.author, ownerId: creator.ownerId })
    .onConflictDoNothing()
    .returning();
  const row = rows[0];
  if (!row) throw conflict("a research record with this slug exists: update it with PUT", { exists: true }, "already_exists");
  return researchRecord(row);
}

function requireChangeable(row: Row, caller: ResearchChanger): void {
  if (!mayChangeResearch(row, caller)) {
    throw forbidden("only the record's author (the person who created it, or their bots) or an admin can change it");
  }
}

/** Replaces the content of an existing record the caller may change. The id, author and owner survive. */
export async function updateResearch(db: Db, existing: Row, input: Input, caller: ResearchChanger) {
  requireChangeable(existing, caller);
  keepAuthor(input, existing.author);
  // By id, so a record deleted and re-created by someone else meanwhile is never touched.
  const rows = await db.update(researchRecords).set(contentOf(input)).where(eq(researchRecords.id, existing.id)).returning();
  const row = rows[0];
  if (!row) throw conflict("the record was deleted meanwhile: retry");
  return researchRecord(row);
}

export async function deleteResearch(db: Db, slug: string, caller: ResearchChanger): Promise<void> {
  const existing = await findResearchRow(db, slug);
  if (!existing) throw notFound("no such research record");
  requireChangeable(existing, caller);
  await db.delete(researchRecords).where(eq(researchRecords.id, existing.id));
}
