// Research records in D1. JSON fields are stored as text and parsed back; the record has exactly the seed's fields.
// `author` and `owner_id` are written once, at creation, from the caller; updates never change them.
// Every write is one batch with its checks as guards in front (worker/db/sql-guard.ts) and the rate-limit spend
// (worker/ideas/board-batch.ts): one round trip, and a refused write changes nothing.
import { desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import type { Guard } from "../db/sql-guard.ts";
import type { BoardWrite } from "../ideas/board-batch.ts";
import { researchRecords } from "../db/schema/ideas.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { changeable, type ResearchChanger } from "./ownership.ts";
import type { researchBody } from "./schemas.ts";

type Row = typeof researchRecords.$inferSelect;
type Input = z.output<ReturnType<typeof researchBody>>;

/** A JSON column this module wrote; one that does not parse is a bug to surface (a 500 and its log line), never null. */
function parseJson(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
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

export const ONLY_CREATORS = "only bots and admins can create research records";

/** SQL that is true when the record named `slug` exists. */
const exists = (slug: string) => sql`EXISTS (SELECT 1 FROM ${researchRecords} WHERE ${researchRecords.slug} = ${slug})`;

/** The body may repeat the author (a record read and written back) but never change it. */
function keepAuthor(input: Input, author: string): void {
  if (input.author !== undefined && input.author !== author) throw authorFixed(author);
}

function authorFixed(author: string) {
  return badRequest(`invalid author: it is set by the server to the record's creator ("${author}") and cannot be changed`);
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

export async function createResearch({ db, batch }: BoardWrite, input: Input, creator: ResearchCreator) {
  keepAuthor(input, creator.author);
  const [rows] = await batch([
    db
      .insert(researchRecords)
      .values({ slug: input.slug, ...contentOf(input), author: creator.author, ownerId: creator.ownerId })
      .onConflictDoNothing()
      .returning(),
  ]);
  const row = rows[0];
  if (!row) throw conflict("a research record with this slug exists: update it with PUT", { exists: true }, "already_exists");
  return researchRecord(row);
}

/**
 * PUT: replaces the content of the record the caller may change, or creates it when there is none and the caller
 * may create (`creator`, null when they may not). The id, author and owner of an existing record survive.
 */
export async function putResearch(write: BoardWrite, input: Input, caller: ResearchChanger, creator: ResearchCreator | null) {
  const { db, batch } = write;
  const slug = input.slug;
  const guards: Guard[] = [];
  if (!creator) guards.push({ marker: "research_create", holds: exists(slug), refusal: () => forbidden(ONLY_CREATORS) });
  guards.push(changeable(slug, caller));
  if (input.author !== undefined) {
    const author = input.author;
    const current = sql`(SELECT ${researchRecords.author} FROM ${researchRecords} WHERE ${researchRecords.slug} = ${slug})`;
    const fallback = creator?.author ?? null;
    guards.push({
      marker: "research_author",
      holds: sql`coalesce(${current}, ${fallback}) = ${author}`,
      refusal: async () => authorFixed((await findResearchRow(db, slug))?.author ?? fallback ?? ""),
    });
  }
  const content = contentOf(input);
  const update = db.update(researchRecords).set(content).where(eq(researchRecords.slug, slug)).returning();
  if (!creator) {
    const [updated] = await batch([update], guards);
    return { created: false, record: researchRecord(updated[0]!) };
  }
  // Exactly one of the two writes anything: the update when the record exists, else the insert.
  const insert = db
    .insert(researchRecords)
    .values({ slug, ...content, author: creator.author, ownerId: creator.ownerId })
    .onConflictDoNothing()
    .returning();
  const [updated, inserted] = await batch([update, insert], guards);
  const row = updated[0] ?? inserted[0];
  if (!row) throw new Error("research put wrote nothing");
  return { created: updated.length === 0, record: researchRecord(row) };
}

export async function deleteResearch({ db, batch }: BoardWrite, slug: string, caller: ResearchChanger): Promise<void> {
  const found: Guard = { marker: "research_missing", holds: exists(slug), refusal: () => notFound("no such research record") };
  await batch([db.delete(researchRecords).where(eq(researchRecords.slug, slug))], [found, changeable(slug, caller)]);
}
