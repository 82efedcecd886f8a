import { expect, it } from "vitest";
import { MAX_TTS_CHARS, TTS_AUDIO_BYTES_PER_CHAR, ttsCharsFitting } from "./limits";

it("the TTS text limit under a capped body keeps the JSON answer (base64 audio + metadata) inside the cap", () => {
  const vercel = ttsCharsFitting(4_500_000);
  expect(vercel).toBe(560);
  const base64Bytes = Math.ceil((vercel * TTS_AUDIO_BYTES_PER_CHAR) / 3) * 4;
  expect(base64Bytes + 16 * 1024).toBeLessThanOrEqual(4_500_000);
  expect(ttsCharsFitting(100_000_000)).toBe(MAX_TTS_CHARS);
});
