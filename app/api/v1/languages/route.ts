import { serveRoute } from "@/lib/api/route";
import type { AvailabilityView } from "@/lib/availability";
import { validate } from "@/lib/kit/body";
import { conditionalResponse, type FixedBody, fixedBody, PRIVATE_READ_CACHE } from "@/lib/kit/validator";
import { listLanguages, shippedListing } from "@/lib/languages/listing";
import { LanguagesQuery } from "@/lib/languages/schemas";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * GET /api/v1/languages — the languages translate, STT and TTS serve, with providers, models and quality per pair, STT
 * models and formats, TTS voices. Filters: capability, provider, source (see lib/languages/listing.ts).
 * Cacheable per caller: ETag + Cache-Control private; If-None-Match → 304.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/languages", {
  GET: async ({ req }) => {
    const params = new URL(req.url).searchParams;
    const query = validate(
      LanguagesQuery,
      Object.fromEntries(["capability", "provider", "source"].filter((k) => params.has(k)).map((k) => [k, params.get(k)])),
      "query",
    );
    const view = await services().availability.view(catalogueSubjects());
    return conditionalResponse(req, rendered(query, view), { "Content-Type": "application/json", "Cache-Control": PRIVATE_READ_CACHE });
  },
});

/*
 * The listing depends only on the query, the availability view (its version is part of the key) and configuration
 * fixed at start-up (the model map, HF_ASR_MODEL), so
 * each distinct query's body (≈290 kB unfiltered) and ETag are computed once, not per request — building, serialising
 * and hashing it cost several ms of CPU a request (bench/results). Bounded: at most MEMO_MAX distinct queries are
 * kept, oldest out.
 */
const MEMO_MAX = 64;
const memo = new Map<string, FixedBody>();

function rendered(query: LanguagesQuery, view: AvailabilityView): FixedBody {
  const memoKey = `${query.capability ?? ""}|${query.provider ?? ""}|${query.source ?? ""}|${view.version}`;
  let hit = memo.get(memoKey);
  if (!hit) {
    hit = fixedBody(shippedListing(query, view) ?? JSON.stringify(listLanguages(query, undefined, undefined, view)));
    if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
    memo.set(memoKey, hit);
  }
  return hit;
}
