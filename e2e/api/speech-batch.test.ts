import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EmulatorServer, type SunbirdBatchFaults, speechDurationSeconds } from "@/lib/providers/sandbox";
import { SUNBIRD_TTS_PIECE_CHARS } from "@/lib/providers/sunbird";
import { TTS_MEDIA_TYPES, type TtsFormat } from "@/lib/speech/formats";
import { splitForLimit } from "@/lib/translate/segment";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { ffmpegSeconds } from "../support/audio";
import { startCheckingEmulators } from "../support/emulators";

/**
 * Long text to speech over HTTP against the built app, with live clients on loopback emulators: a text longer than one
 * synthesis goes to Sunbird as one POST /tasks/audio/speech/batch (one quota unit), the pieces' clips come back joined
 * in the format asked for, and ffmpeg (an independent decoder) finds the duration the answer states. Per-item failures
 * are injected into the emulator as Sunbird has them: an item whose audio did not reach storage.
 */

const faults: SunbirdBatchFaults = { failAfter: 0, failNext: 0 };
let sunbird: EmulatorServer;
let khaya: EmulatorServer;
let hf: EmulatorServer;
let app: RunningApp;
let key: string;

beforeAll(async () => {
  const live = await startCheckingEmulators(
    { sunbird: { sunbirdBatchFaults: faults } },
    { CIRCUIT_FAILURE_THRESHOLD: "1000", RATE_LIMIT_TTS: "1000/60s" },
  );
  [sunbird, khaya, hf] = live.emulators;
  app = await startApp({ env: live.env });
  key = await mintKey(app.url, "long tts");
}, 300_000);
afterAll(async () => {
  await stopAllApps();
  await Promise.all([sunbird, khaya, hf].map((s) => s?.close()));
});
beforeEach(() => {
  for (const s of [sunbird, khaya, hf]) s.reset();
  Object.assign(faults, { failAfter: 0, failNext: 0 });
});

const tts = (json: Record<string, unknown>) => call(app.url, "POST", "/api/v1/speech/tts", { key, json });

/** Forty sentences with what a naive splitter cuts wrongly: titles, initials and decimals. */
const FORTY = Array.from(
  { length: 40 },
  (_, i) => `Dr. Okello na J. Nankya baagula ebijanjaalo bya 3.5 kilo ku lunaku olwa ${i + 1} mu katale ka Nakasero.`,
).join(" ");
const ORPHEUS = { language: "lug", voice: "salt_lug_0001" };

/** The items of each batch request Sunbird received, in order. */
function batchItems(): string[][] {
  return sunbird.stats.recent
    .filter((r) => r.path === "/tasks/audio/speech/batch")
    .map((r) => (JSON.parse(r.bodyText ?? "{}").items as { text: string }[]).map((item) => item.text));
}

/** Seconds of speech the emulator renders for `pieces`, each a 24 kHz clip (whole samples). */
const spokenSeconds = (pieces: readonly string[]) => pieces.reduce((sum, p) => sum + Math.round(speechDurationSeconds(p) * 24_000), 0) / 24_000;

describe("a text of 40 sentences in an Orpheus voice", () => {
  it.each(["opus", "mp3", "wav"] as const)(
    "%s: one batch request to Sunbird, the clips joined, decoding to the duration stated",
    async (format: TtsFormat) => {
      const res = await tts({ text: FORTY, ...ORPHEUS, format });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        provider: "provider_a",
        voice: "salt_lug_0001",
        content_type: TTS_MEDIA_TYPES[format].contentType,
        upstream_calls: 1,
      });

      // Exactly one call to the API: the batch; every other request is a signed download, which costs nothing.
      expect(sunbird.stats.byPath["/tasks/audio/speech/batch"]).toBe(1);
      expect(sunbird.stats.byPath["/tasks/audio/speech"]).toBeUndefined();
      expect(sunbird.stats.quotaUnits).toBe(1);
      const [items] = batchItems();
      // Cut only at sentence ends (never after "Dr." or "J." or inside "3.5"), each within the piece size, nothing lost.
      expect(items.length).toBeGreaterThan(1);
      for (const item of items) {
        expect(item).toMatch(/^Dr\. Okello .*Nakasero\.$/);
        expect([...item].length).toBeLessThanOrEqual(SUNBIRD_TTS_PIECE_CHARS);
      }
      expect(items.join(" ")).toBe(FORTY);

      const audio = Buffer.from(res.body.audio_base64, "base64");
      const stated = res.body.audio_duration_seconds;
      expect(stated).toBeCloseTo(spokenSeconds(items), format === "wav" ? 3 : 1);
      const decoded = await ffmpegSeconds(audio, `speech.${TTS_MEDIA_TYPES[format].extension}`);
      // Ogg/Opus ends at its last granule position; MP3 may carry a frame of padding more.
      expect(Math.abs(decoded - stated)).toBeLessThan(format === "mp3" ? 0.1 : 0.03);
    },
    120_000,
  );
});

describe("per-item failures in Sunbird's batch", () => {
  it("an item that failed is sent again alone, once: the whole text is spoken, for a second quota unit", async () => {
    Object.assign(faults, { failAfter: 2, failNext: 1 });
    const res = await tts({ text: FORTY, ...ORPHEUS, format: "opus" });
    expect(res.status, res.text).toBe(200);
    const [first, again] = batchItems();
    expect(again).toEqual([first[2]]);
    expect(res.body.upstream_calls).toBe(2);
    expect(sunbird.stats.quotaUnits).toBe(2);
    expect(res.body.audio_duration_seconds).toBeCloseTo(spokenSeconds(first), 1);
    expect(await ffmpegSeconds(Buffer.from(res.body.audio_base64, "base64"), "speech.ogg")).toBeCloseTo(res.body.audio_duration_seconds, 1);
  }, 120_000);

  it("an item that fails again fails the request with PROVIDER_ERROR: no answer with a part of the text missing", async () => {
    const pieces = splitForLimit(FORTY, SUNBIRD_TTS_PIECE_CHARS).chunks.length;
    // The first piece is spoken, every other fails; asked again, the first of those fails once more.
    Object.assign(faults, { failAfter: 1, failNext: pieces });
    const res = await tts({ text: FORTY, ...ORPHEUS });
    const detail = expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(detail.message).toContain(
      `provider_a failed to synthesise speech in Luganda (lug): unavailable: provider failed to synthesise 1 of the ${pieces} parts of the text, also when asked again.`,
    );
    expect(detail.message).toContain('chosen by the voice "salt_lug_0001"');
    expect(batchItems()).toHaveLength(2);
    expect(res.text).not.toContain("audio_base64");
  }, 120_000);

  it("every item failing is Sunbird's 502 for the batch: charged once and not sent again; auto routing speaks the text with the next provider", async () => {
    Object.assign(faults, { failNext: 1_000 });
    const forced = await tts({ text: FORTY, ...ORPHEUS });
    expect(expectEnvelope(forced, 503, "PROVIDER_ERROR").message).toContain("provider unavailable (HTTP 502)");
    expect(sunbird.stats.quotaUnits).toBe(1);
    expect(batchItems()).toHaveLength(1);

    sunbird.reset();
    const english = Array.from({ length: 40 }, (_, i) => `Mr. Okello bought 3.5 kilograms of beans on day ${i + 1} at the market.`).join(" ");
    const res = await tts({ text: english, language: "en", format: "opus" });
    expect(res.status, res.text).toBe(200);
    // English speaks with Orpheus first on provider_a (a batch that fails), then with Khaya, one call a piece.
    expect(res.body).toMatchObject({ provider: "provider_b", fallback_used: true, providers_tried: ["provider_a", "provider_b"] });
    expect(batchItems()).toHaveLength(1);
    expect(res.body.upstream_calls).toBe(1 + khaya.stats.requests);
    expect(khaya.stats.requests).toBeGreaterThan(1);
  }, 120_000);
});

describe("text limits", () => {
  it("5,000 characters are spoken (in Opus, in one batch); 5,001 are refused before any provider is called", async () => {
    const long = `${FORTY} ${FORTY}`.slice(0, 5_000).trim();
    const res = await tts({ text: long, ...ORPHEUS, format: "opus" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.upstream_calls).toBe(1);
    expect(batchItems()[0].length).toBeLessThanOrEqual(128);
    sunbird.reset();
    const refused = expectEnvelope(await tts({ text: "a".repeat(5_001), ...ORPHEUS }), 422, "TEXT_TOO_LONG");
    expect(refused.message).toBe("text is 5,001 characters; the limit is 5,000 characters.");
    expect(refused.errors?.[0].loc).toEqual(["body", "text"]);
    expect(sunbird.stats.requests).toBe(0);
  }, 180_000);
});
