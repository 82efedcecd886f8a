import { expect, it } from "vitest";
import { TTS_FORMATS } from "./formats";
import { MAX_TTS_CHARS, ttsAnswerBytes, ttsCharsFitting } from "./limits";

it("the TTS text limit under a capped body keeps the JSON answer (base64 audio + metadata) inside the cap, per format", () => {
  for (const format of TTS_FORMATS) {
    const fitting = ttsCharsFitting(4_500_000, format);
    expect(ttsAnswerBytes(fitting, false, format)).toBeLessThanOrEqual(4_500_000);
    if (fitting < MAX_TTS_CHARS) expect(ttsAnswerBytes(fitting + 1, false, format)).toBeGreaterThan(4_500_000);
    expect(ttsCharsFitting(100_000_000, format)).toBe(MAX_TTS_CHARS);
  }
  // WAV (48,000 bytes a second, 8 characters a second, base64): 560 characters on Vercel.
  expect(ttsCharsFitting(4_500_000, "wav")).toBe(560);
});
