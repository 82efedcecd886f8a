import { z } from "zod";
import { MAX_TEXT_CHARS } from "@/lib/translate/limits";
import { DetectionMethod } from "@/lib/translate/schemas";

/**
 * POST /api/v1/detect request and response. The request schema checks shape only (types); the content rules — one of
 * `text` or `texts`, 1–50 texts, each 1–5,000 characters after trimming — are checked by the service (./service.ts),
 * with translate's error codes.
 */

export const MAX_DETECT_TEXTS = 50;

const required = (what: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? "Field required" : `Input should be ${what}`),
});

const Text = z.string(required("a string"));
const limits = `1–${MAX_TEXT_CHARS.toLocaleString("en-US")} characters after trimming (Unicode code points)`;

export const DetectRequest = z
  .object({
    text: Text.optional().describe(`One text to identify: ${limits}. Send either text or texts.`),
    texts: z
      .array(Text, required("an array"))
      .optional()
      .describe(`Up to ${MAX_DETECT_TEXTS} texts, each ${limits}; results come back in the same order. Send either text or texts.`),
  })
  .describe("POST /api/v1/detect request")
  .meta({
    examples: [
      { text: "Abaana bagenda ku ssomero buli lunaku." },
      { texts: ["Abaana bagenda ku ssomero buli lunaku.", "Maakye", "Watoto wanakwenda shuleni kila siku. The children go to school every day."] },
    ],
  });
export type DetectRequest = z.infer<typeof DetectRequest>;

export const DETECT_REASONS = ["mixed", "default", "short_text", "close_candidates"] as const;

export const DetectCandidate = z.object({
  language: z.string().describe("Canonical code, as GET /api/v1/languages and translate use it"),
  confidence: z.number().min(0).max(1),
});

export const DetectResult = z
  .object({
    language: z.string().describe("The detected language: what translate takes as the source when source_lang is omitted"),
    confidence: z.number().min(0).max(1).describe("0–1; the same figure translate reports as detected_source_confidence for this text"),
    reliable: z
      .boolean()
      .describe("True when the answer can be relied on (confidence ≥ 0.7 and one language throughout); otherwise pass source_lang yourself"),
    reason: z
      .enum(DETECT_REASONS)
      .nullable()
      .describe(
        "Why the answer is not reliable; null when it is. mixed: the text is in more than one language (two scripts, or sentences or clauses each clearly in another language); default: nothing in the text points to any language (a short text that matches no greeting or word list, or no letters), so `language` is the documented default, English, at confidence 0.1; short_text: an answer from too little text (under 40 letters); close_candidates: another language scores nearly as well",
      ),
    candidates: z
      .array(DetectCandidate)
      .max(3)
      .describe(
        "Up to 3 detectable languages, best first (the first is `language`), each with a confidence on the same scale: how close a runner-up came",
      ),
    method: DetectionMethod,
  })
  .describe("Detection result for one text");
export type DetectResult = z.infer<typeof DetectResult>;

export const DetectResponse = z
  .object({ results: z.array(DetectResult).describe("One result per text, in request order (one for `text`)") })
  .describe("POST /api/v1/detect response")
  .meta({
    examples: [
      {
        results: [
          {
            language: "lug",
            confidence: 0.85,
            reliable: true,
            reason: null,
            candidates: [
              { language: "lug", confidence: 0.85 },
              { language: "rw", confidence: 0.45 },
              { language: "ki", confidence: 0.24 },
            ],
            method: "statistical",
          },
          { language: "tw", confidence: 0.95, reliable: true, reason: null, candidates: [{ language: "tw", confidence: 0.95 }], method: "greeting" },
          {
            language: "sw",
            confidence: 0.9,
            reliable: false,
            reason: "mixed",
            candidates: [
              { language: "sw", confidence: 0.9 },
              { language: "en", confidence: 0.5 },
              { language: "ts", confidence: 0.48 },
            ],
            method: "statistical",
          },
        ],
      },
    ],
  });
export type DetectResponse = z.infer<typeof DetectResponse>;
