/** Never reflect input: every field of speech-to-text and text-to-speech that can fail answers without quoting the caller. */
import { describe, expect, it } from "vitest";
import { validate } from "@/lib/kit/body";
import { ApiError } from "@/lib/kit/errors";
import { makeWav } from "@/lib/providers/sandbox";
import { testProviders } from "@/lib/providers/test-support";
import { expectNotReflected, HOSTILE_VALUES, thrown } from "@/lib/routing/hostile.test-support";
import { readSttUpload } from "./multipart";
import { TtsRequest } from "./schemas";
import { type SpeechDeps, transcribeAudio } from "./stt";
import { synthesizeSpeech } from "./tts";

const deps: SpeechDeps = {
  providers: testProviders({ PROVIDER_MODE: "sandbox" }).clients,
  deadlineMs: 5_000,
  maxAudioSeconds: 600,
};
const wav = makeWav({ durationSeconds: 0.5 });

function upload(fill: (f: FormData) => void): Request {
  const form = new FormData();
  fill(form);
  return new Request("http://test/api/v1/speech/stt", { method: "POST", body: form });
}

describe("speech never reflects caller input in an error", () => {
  for (const value of HOSTILE_VALUES) {
    const label = `${value.slice(0, 30)}… (${value.length} characters)`;

    it(`TTS language, voice, provider: ${label}`, async () => {
      const language = await thrown(() => synthesizeSpeech({ text: "Hello", language: value }, deps));
      expect((language as ApiError).code).toBe("UNSUPPORTED_LANGUAGE");
      await expectNotReflected(language, "language");
      const voice = await thrown(() => synthesizeSpeech({ text: "Hello", language: "lug", voice: value }, deps));
      expect((voice as ApiError).code).toBe("UNSUPPORTED_VOICE");
      expect((voice as ApiError).message).toMatch(/^voice is not a known voice id\. Voices for Luganda \(lug\): 248, /);
      await expectNotReflected(voice, "voice");
      await expectNotReflected(await thrown(() => validate(TtsRequest, { text: "Hello", language: "lug", provider: value }, "body")), "provider");
    });

    it(`STT language (service and multipart), provider, field names: ${label}`, async () => {
      const language = await thrown(() => transcribeAudio({ audio: wav, language: value }, deps));
      expect(language).toBeInstanceOf(ApiError);
      await expectNotReflected(language, "language");
      const form = (fields: Record<string, string>) =>
        upload((f) => {
          f.set("audio", new Blob([wav], { type: "audio/wav" }), "a.wav");
          for (const [k, v] of Object.entries(fields)) f.append(k, v);
        });
      await expectNotReflected(await thrown(() => readSttUpload(form({ language: "lug", provider: value }), 1 << 20)), "provider");
      await expectNotReflected(await thrown(() => readSttUpload(form({ [value]: "1" }), 1 << 20)), "field name");
      await expectNotReflected(await thrown(() => readSttUpload(form({ language: value, provider: value }), 1 << 20)), "both");
      const fileAsName = upload((f) => f.set(value, new Blob([wav], { type: "audio/wav" }), value));
      await expectNotReflected(await thrown(() => readSttUpload(fileAsName, 1 << 20)), "file part name");
    });
  }
});
