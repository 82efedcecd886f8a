import { randomUUID } from "node:crypto";
import type { DatabaseSource } from "@/lib/db";
import { invalidApiKey } from "@/lib/keys/refusals";
import { ApiError, type FieldError } from "@/lib/kit/errors";
import { getLanguage } from "@/lib/languages/registry";
import { resolveLanguageCode } from "@/lib/languages/resolve";
import { type CreateGlossaryRequest, GLOSSARIES_PER_KEY, type GlossaryEntry } from "./schemas";

/**
 * Glossaries: stored per API key, immutable, each for one language pair (docs/decisions.md "Glossaries").
 * Every read and delete is scoped to the calling key: another key's glossary is indistinguishable from one that does
 * not exist (404 NOT_FOUND; for translate, 422 on glossary_id), so ids cannot be probed across keys.
 * The queries are SQL, not Prisma's model API, whose first run of each query shape in a process costs tens of ms
 * (docs/deploy.md "Database"); a glossary read is on translate's path.
 */

export interface GlossaryRecord {
  id: string;
  name: string | null;
  sourceLang: string;
  targetLang: string;
  entryCount: number;
  createdAt: Date;
}

export interface GlossaryWithEntries extends GlossaryRecord {
  entries: GlossaryEntry[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Creates a glossary owned by `keyId`; languages resolved to canonical codes, at most GLOSSARIES_PER_KEY per key. */
export async function createGlossary(db: DatabaseSource, keyId: string, body: CreateGlossaryRequest, now = new Date()): Promise<GlossaryWithEntries> {
  const sourceLang = resolveLanguageCode(body.source_lang, "source_lang");
  const targetLang = resolveLanguageCode(body.target_lang, "target_lang");
  if (sourceLang === targetLang) {
    const name = getLanguage(sourceLang)?.name ?? sourceLang;
    throw new ApiError("SAME_LANGUAGE", `source_lang and target_lang are both ${name} (${sourceLang}); a glossary maps one language to another.`, {
      errors: [{ loc: ["body", "source_lang"], msg: "Source and target language are the same", type: "same_language" }],
    });
  }
  const { prisma } = await db();
  return prisma.$transaction(async (tx) => {
    // The key's row is locked first, so concurrent creates by one key count one after another (the limit holds
    // exactly) and a create cannot slip in after a revocation has deleted the key's glossaries.
    const [owner] = await tx.$queryRaw<{ revoked: boolean }[]>`
      SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = ${keyId}::uuid FOR UPDATE`;
    if (!owner || owner.revoked) throw invalidApiKey();
    const [{ held }] = await tx.$queryRaw<{ held: number }[]>`SELECT count(*)::int AS held FROM glossaries WHERE key_id = ${keyId}::uuid`;
    if (held >= GLOSSARIES_PER_KEY)
      throw new ApiError("VALIDATION_ERROR", `This API key already holds ${GLOSSARIES_PER_KEY} glossaries, the most it may; delete one first.`, {
        errors: [{ loc: ["body"], msg: `At most ${GLOSSARIES_PER_KEY} glossaries per API key`, type: "glossary_limit" }],
      });
    const glossary: GlossaryWithEntries = {
      id: randomUUID(),
      name: body.name ?? null,
      sourceLang,
      targetLang,
      entryCount: body.entries.length,
      createdAt: now,
      entries: body.entries.map(({ source, target }) => ({ source, target })),
    };
    await tx.$executeRaw`
      INSERT INTO glossaries (id, key_id, name, source_lang, target_lang, entries, entry_count, created_at)
      VALUES (${glossary.id}::uuid, ${keyId}::uuid, ${glossary.name}, ${sourceLang}, ${targetLang}, ${JSON.stringify(glossary.entries)}::jsonb,
              ${glossary.entryCount}, ${now}::timestamptz)`;
    return glossary;
  });
}

/** The key's glossaries, newest first, without entries. */
export async function listGlossaries(db: DatabaseSource, keyId: string): Promise<GlossaryRecord[]> {
  const { prisma } = await db();
  const rows = await prisma.$queryRaw<GlossaryRow[]>`
    SELECT id, name, source_lang, target_lang, entry_count, created_at FROM glossaries
     WHERE key_id = ${keyId}::uuid ORDER BY created_at DESC, id DESC`;
  return rows.map(glossaryRecord);
}

/** One of the key's glossaries with its entries; undefined when there is none with this id for this key. */
export async function findGlossary(db: DatabaseSource, keyId: string, id: string): Promise<GlossaryWithEntries | undefined> {
  if (!UUID.test(id)) return undefined;
  const { prisma } = await db();
  // The entries as text, parsed here: what a driver makes of a jsonb column is its own choice.
  const [row] = await prisma.$queryRaw<(GlossaryRow & { entries: string })[]>`
    SELECT id, name, source_lang, target_lang, entry_count, created_at, entries::text AS entries FROM glossaries
     WHERE id = ${id}::uuid AND key_id = ${keyId}::uuid`;
  return row ? { ...glossaryRecord(row), entries: JSON.parse(row.entries) as GlossaryEntry[] } : undefined;
}

/** GET /glossaries/{id}: the glossary, or 404 when the key has none with this id (another key's included). */
export async function getGlossary(db: DatabaseSource, keyId: string, id: string): Promise<GlossaryWithEntries> {
  const glossary = await findGlossary(db, keyId, id);
  if (!glossary) throw notFound();
  return glossary;
}

/** Deletes one of the key's glossaries; 404 when the key has none with this id. */
export async function deleteGlossary(db: DatabaseSource, keyId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound();
  const { prisma } = await db();
  const deleted = await prisma.$executeRaw`DELETE FROM glossaries WHERE id = ${id}::uuid AND key_id = ${keyId}::uuid`;
  if (deleted === 0) throw notFound();
}

/**
 * For translate and batch: the entries of the glossary `glossaryId` if it belongs to `keyId` and is for exactly the
 * request's pair (`source` the supplied or detected source, both canonical). Otherwise 422 VALIDATION_ERROR on `loc`
 * (["body", "glossary_id"], or the batch item's), never saying whether the id exists for another key.
 */
export async function resolveGlossary(
  db: DatabaseSource,
  keyId: string,
  glossaryId: string,
  source: string,
  target: string,
  loc: FieldError["loc"] = ["body", "glossary_id"],
): Promise<UsableGlossary> {
  return usableGlossary(await findGlossary(db, keyId, glossaryId), source, target, loc);
}

export interface UsableGlossary {
  id: string;
  entries: GlossaryEntry[];
}

/** resolveGlossary's checks on a glossary already looked up (a batch looks each id up once for all its items). */
export function usableGlossary(
  glossary: GlossaryWithEntries | undefined,
  source: string,
  target: string,
  loc: FieldError["loc"] = ["body", "glossary_id"],
): UsableGlossary {
  if (!glossary)
    throw new ApiError("VALIDATION_ERROR", "No glossary with this glossary_id belongs to this API key (GET /api/v1/glossaries lists yours).", {
      errors: [{ loc, msg: "Unknown glossary", type: "glossary_not_found" }],
    });
  if (glossary.sourceLang !== source || glossary.targetLang !== target)
    throw new ApiError(
      "VALIDATION_ERROR",
      `The glossary is for ${glossary.sourceLang} → ${glossary.targetLang}, but this request translates ${source} → ${target}.`,
      { errors: [{ loc, msg: "The glossary's language pair is not the request's", type: "glossary_pair_mismatch" }] },
    );
  return { id: glossary.id, entries: glossary.entries };
}

/** A row of `glossaries` as SQL gives it. */
interface GlossaryRow {
  id: string;
  name: string | null;
  source_lang: string;
  target_lang: string;
  entry_count: number;
  created_at: Date;
}

function glossaryRecord(r: GlossaryRow): GlossaryRecord {
  return { id: r.id, name: r.name, sourceLang: r.source_lang, targetLang: r.target_lang, entryCount: r.entry_count, createdAt: r.created_at };
}

function notFound() {
  return new ApiError("NOT_FOUND", "No glossary with this id belongs to this API key.");
}

/** The JSON shape of a glossary in responses. */
export function glossaryJson(g: GlossaryRecord) {
  return {
    id: g.id,
    name: g.name,
    source_lang: g.sourceLang,
    target_lang: g.targetLang,
    entry_count: g.entryCount,
    created_at: g.createdAt.toISOString(),
  };
}
