import { fieldError } from "@/lib/routing/fields";
import { normalizeLanguageCode } from "./registry";

/**
 * A language field of a request (translate, batch, glossaries) as its canonical code, or 422 UNSUPPORTED_LANGUAGE on
 * `[...loc, field]`. The message names the field and where the codes are listed, never the value sent.
 */
export function resolveLanguageCode(value: string, field: string, loc: (string | number)[] = ["body"]): string {
  const code = normalizeLanguageCode(value);
  if (code) return code;
  throw fieldError(
    "UNSUPPORTED_LANGUAGE",
    `${field} is not a supported language code. GET /api/v1/languages lists the supported codes (e.g. en, lug, sw, yo, tw).`,
    [...loc, field],
    "unsupported_language",
  );
}
