import { z } from "zod";

/** Control characters, bidi overrides/isolates and unpaired surrogates: invisible or misleading in a label. */
const HOSTILE_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F]|\p{Cs}/u;

/**
 * A name must show something: at least one letter, digit, punctuation mark or symbol. Format characters (zero-width
 * spaces and joiners), combining marks alone and the blank "letters" (Hangul fillers, Braille blank) do not count.
 */
const VISIBLE_CHARACTER = /[\p{L}\p{N}\p{P}\p{S}]/u;
const BLANK_LETTERS = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;

export const KEY_NAME_MAX = 100;
export const KEY_LIFETIME_MAX_DAYS = 365;

/** POST /api/v1/auth/keys request. */
export const IssueKeyRequest = z.object({
  name: z
    .string({ error: (iss) => (iss.input === undefined ? "Field required" : "Input should be a string") })
    .transform((s) => s.trim().normalize("NFC"))
    .check((ctx) => {
      const length = [...ctx.value].length;
      if (length === 0)
        ctx.issues.push({ code: "custom", input: ctx.value, message: "Name must not be empty", params: { type: "string_too_short" } });
      else if (!VISIBLE_CHARACTER.test(ctx.value.replace(BLANK_LETTERS, "")))
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: "Name must contain at least one visible character",
          params: { type: "string_too_short" },
        });
      if (length > KEY_NAME_MAX)
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `Name must be at most ${KEY_NAME_MAX} characters`,
          params: { type: "string_too_long" },
        });
      if (HOSTILE_CHARACTERS.test(ctx.value))
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: "Name must not contain control or bidirectional-override characters",
          params: { type: "invalid_characters" },
        });
    }),
  expires_in_days: z
    .number({ error: "Input should be an integer number of days" })
    .int("Input should be an integer number of days")
    .min(1, "Must be at least 1 day")
    .max(KEY_LIFETIME_MAX_DAYS, `Must be at most ${KEY_LIFETIME_MAX_DAYS} days`)
    .optional(),
});
export type IssueKeyRequest = z.infer<typeof IssueKeyRequest>;

export const IssuedKey = z.object({
  api_key: z.string().describe("The plain-text key, shown once: svc_ + 40 hex characters"),
  name: z.string(),
  created_at: z.string().describe("ISO 8601 UTC"),
  expires_at: z.string().describe("ISO 8601 UTC"),
});

export const KeyDetails = z.object({
  name: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  requests_total: z.number().int(),
  display_prefix: z.string().describe("First characters of the key, for recognising it"),
  last_used_at: z.string().nullable(),
  rate_limits: z.record(z.string(), z.object({ limit: z.number().int(), window_seconds: z.number() })),
});
