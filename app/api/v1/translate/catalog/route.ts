import { RawReply, serveRoute } from "@/lib/api/route";
import { offThreadCatalogFiles } from "@/lib/catalog/off-thread";
import { services } from "@/lib/server";
import { bypassRequested, translateCatalog } from "@/lib/translate";
import { CATALOG_MEDIA_TYPES, type CatalogResponse } from "@/lib/translate/catalog-schemas";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 60;

/** Large files are read and written on worker threads (wired here, so that only this route's function carries the worker). */
const catalogFiles = offThreadCatalogFiles();

/**
 * POST /api/v1/translate/catalog — translate a whole catalog file (JSON, PO, XLIFF, Android, .strings, ARB, YAML,
 * SRT, VTT, Markdown) into one language. 200 with the translated file and its counts; entries the deadline or the
 * provider's budget left are `pending` (call again with the file as `existing`), entries that failed are listed.
 * A file that does not parse is 422 VALIDATION_ERROR on `content`. With `Accept:` the format's media type (or
 * application/octet-stream), the file itself, its counts in X-Lugha-Entries-* headers.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/translate/catalog", {
  POST: async ({ req, body, key }) => {
    const deps = { ...services().translate, catalogFiles };
    const result = await translateCatalog(body, deps, { caller: { apiKeyId: key.id, bypass: bypassRequested(req.headers, body.cache) } });
    const as = fileType(req.headers.get("accept"), body.format);
    return as ? fileReply(result, as) : result;
  },
});

/**
 * The file's media type when Accept names the format's own (not JSON's, which asks for the answer), or
 * application/octet-stream (any format, JSON and ARB included: the file as bytes); else undefined (the JSON answer).
 */
function fileType(accept: string | null, format: CatalogResponse["format"]): string | undefined {
  const types = (accept ?? "").split(",").map((t) => t.split(";")[0].trim().toLowerCase());
  const own = CATALOG_MEDIA_TYPES[format];
  if (own !== "application/json" && types.includes(own)) return own;
  return types.includes("application/octet-stream") ? "application/octet-stream" : undefined;
}

function fileReply(result: CatalogResponse, mediaType: string): RawReply {
  const { entries } = result;
  const headers = new Headers({
    "Content-Type": mediaType === "application/octet-stream" ? mediaType : `${mediaType}; charset=utf-8`,
    "X-Lugha-Entries-Total": String(entries.total),
    "X-Lugha-Entries-Translated": String(entries.translated),
    "X-Lugha-Entries-Kept": String(entries.kept),
    "X-Lugha-Entries-Kept-Unverified": String(entries.kept_unverified),
    "X-Lugha-Entries-Pending": String(entries.pending),
    "X-Lugha-Entries-Failed": String(entries.failed.length),
    "X-Lugha-Characters-Translated": String(result.characters_translated),
  });
  if (result.retry_after_seconds !== null) headers.set("X-Lugha-Retry-After", String(result.retry_after_seconds));
  const { content: _file, ...counts } = result;
  return new RawReply(new Response(result.content, { status: 200, headers }), result.sandbox, {
    provider: result.provider ?? undefined,
    usage: counts,
  });
}
