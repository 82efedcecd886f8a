import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp, stopAllApps } from "../support/app";
import { type AudioFile, type AudioFixtures, audioFixtures, removeAudioFixtures, sttUpload } from "../support/audio";
import { EMULATOR_CREDENTIALS, startCheckingEmulators } from "../support/emulators";

/**
 * Speech in live mode: the app's real provider clients talk to the three upstream emulators over loopback HTTP, with
 * credentials, so the wire contracts, the signed-URL download, fallback and the error mapping run end to end.
 */

/** Declared "not supported" by the Hugging Face emulator (hf-inference has no deployment of it); no other test uses it. */
const UNDEPLOYED_VOICE = "facebook/mms-tts-swh";
let sunbird: EmulatorServer;
let khaya: EmulatorServer;
let hf: EmulatorServer;
let app: RunningApp;
let key: string;
let fx: AudioFixtures;

beforeAll(async () => {
  let live: Awaited<ReturnType<typeof startCheckingEmulators>>;
  [live, fx] = await Promise.all([
    startCheckingEmulators(
      { hf: { hfNotSupported: [UNDEPLOYED_VOICE] } },
      { PROVIDER_MAX_RETRIES: "0", CIRCUIT_FAILURE_THRESHOLD: "1000", RATE_LIMIT_STT: "1000/60s", RATE_LIMIT_TTS: "1000/60s" },
    ),
    audioFixtures(),
  ]);
  [sunbird, khaya, hf] = live.emulators;
  app = await startApp({ env: live.env });
  key = await mintKey(app.url, "live speech");
});
afterAll(async () => {
  await stopAllApps();
  await Promise.all([sunbird, khaya, hf].map((s) => s?.close()));
  removeAudioFixtures();
});
beforeEach(() => {
  for (const s of [sunbird, khaya, hf]) s.reset();
});

const upload = (file: AudioFile, fields: Record<string, string>) => sttUpload(app.url, key, file.bytes, file.name, fields);
const tts = (json: unknown) => call(app.url, "POST", "/api/v1/speech/tts", { key, json });

describe("STT against the live clients", () => {
  it("sends Sunbird a multipart upload typed by its bytes, with the ISO 639-3 language and the token", async () => {
    const res = await upload(fx.files.ogg, { language: "sw" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_a", sandbox: false, language: "sw" });
    expect(res.headers.get("x-lugha-sandbox")).toBeNull();
    const [req] = sunbird.stats.recent;
    expect(req).toMatchObject({ method: "POST", path: "/tasks/audio/transcriptions" });
    expect(req.headers.authorization).toBe(`Bearer ${EMULATOR_CREDENTIALS.sunbird}`);
    expect(req.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(res.body.transcript).toContain("[sandbox:sunbird swa]");
  });

  it("sends Khaya the raw bytes with their real type and the subscription key", async () => {
    const res = await upload(fx.files.flac, { language: "tw" });
    expect(res.body).toMatchObject({ provider: "provider_b", model_used: "provider_b/khaya-asr-v3" });
    const [req] = khaya.stats.recent;
    expect(req).toMatchObject({ path: "/asr/v3/transcribe?language=twi&timestamps=segment", bodyBytes: fx.files.flac.bytes.byteLength });
    expect(req.headers["content-type"]).toBe("audio/flac");
    expect(req.headers["ocp-apim-subscription-key"]).toBe(EMULATOR_CREDENTIALS.khaya);
  });

  it("falls back to provider_b when provider_a is down", async () => {
    sunbird.setControls({ failMode: "status", status: 503 });
    const res = await upload(fx.files.wav, { language: "en" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_b", fallback_used: true, providers_tried: ["provider_a", "provider_b"] });
    expect(sunbird.stats.byPath["/tasks/audio/transcriptions"]).toBe(1);
  });

  it("falls back when provider_a drops the connection, and when it answers an HTML page", async () => {
    sunbird.setControls({ failMode: "reset" });
    expect((await upload(fx.files.mp3, { language: "sw" })).body).toMatchObject({ provider: "provider_b", fallback_used: true });
    sunbird.setControls({ failMode: "html", status: 200 });
    expect((await upload(fx.files.mp3, { language: "sw" })).body).toMatchObject({ provider: "provider_b", fallback_used: true });
  });

  it("a forced provider_a that is down → 503 PROVIDER_ERROR naming it, without the upstream's text", async () => {
    sunbird.setControls({ failMode: "status", status: 502 });
    const res = await upload(fx.files.wav, { language: "en", provider: "provider_a" });
    const d = expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(d.message).toMatch(/^provider_a failed to transcribe English \(en\)/);
    expect(d.message).not.toMatch(/EXTERNAL_SERVICE_ERROR|original_error|An unexpected error occurred/);
    expect(khaya.stats.requests + hf.stats.requests).toBe(0);
  });

  it("Luganda with provider_a down has no other provider: 503", async () => {
    sunbird.setControls({ failMode: "status", status: 503 });
    expect(expectEnvelope(await upload(fx.files.wav, { language: "lug" }), 503, "PROVIDER_ERROR").message).toContain("provider_a");
  });

  it("every provider down → 503 naming all three", async () => {
    for (const s of [sunbird, khaya, hf]) s.setControls({ failMode: "status", status: 500 });
    const d = expectEnvelope(await upload(fx.files.wav, { language: "en" }), 503, "PROVIDER_ERROR");
    expect(d.message).toMatch(/^All providers failed to transcribe English \(en\): provider_a .+; provider_b .+; provider_c .+/);
  });

  it("a bad credential is a provider failure (503), not the caller's 401", async () => {
    hf.setControls({ failMode: "status", status: 401 });
    const d = expectEnvelope(await upload(fx.files.wav, { language: "ln" }), 503, "PROVIDER_ERROR");
    expect(d.message).toContain("provider_c");
  });
});

describe("TTS against the live clients", () => {
  it("downloads provider_a's signed URL server-side: the response carries the audio, never the link", async () => {
    const res = await tts({ text: "Oli otya, nnyabo?", language: "lug" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      provider: "provider_a",
      voice: "248",
      model_used: "provider_a/spark-tts",
      sandbox: false,
      content_type: "audio/wav",
    });
    expect(res.text).not.toMatch(/https?:\/\/|X-Goog-Signature|gcs/);
    const paths = sunbird.stats.recent.map((r) => `${r.method} ${r.path.split("?")[0]}`);
    expect(paths[0]).toBe("POST /tasks/audio/speech");
    expect(paths[1]).toMatch(/^GET \/gcs\/spark_tts\/.+\.wav$/);
    expect(Buffer.from(res.body.audio_base64, "base64").subarray(0, 4).toString("latin1")).toBe("RIFF");
  });

  it("falls back to the next provider's default voice when provider_a is down", async () => {
    sunbird.setControls({ failMode: "status", status: 503 });
    const res = await tts({ text: "Oli otya", language: "lug" });
    expect(res.body).toMatchObject({
      provider: "provider_c",
      voice: "facebook/mms-tts-lug",
      fallback_used: true,
      providers_tried: ["provider_a", "provider_c"],
    });
    expect(hf.stats.recent.at(-1)?.path).toBe("/hf-inference/models/facebook/mms-tts-lug");
  });

  it("an explicit voice never falls back", async () => {
    sunbird.setControls({ failMode: "status", status: 503 });
    const d = expectEnvelope(await tts({ text: "Oli otya", language: "lug", voice: "salt_lug_0001" }), 503, "PROVIDER_ERROR");
    expect(d.message).toContain('chosen by the voice "salt_lug_0001"');
    expect(hf.stats.requests).toBe(0);
  });

  it("Khaya answering an HTML page with 200 instead of audio is a failure, not audio", async () => {
    khaya.setControls({ failMode: "html", status: 200 });
    expectEnvelope(await tts({ text: "Maakye", language: "tw" }), 503, "PROVIDER_ERROR");
  });

  it("a voice whose model answers 'not supported' is marked unavailable: then 422 without a call, out of /languages, in the operator /health", async () => {
    const path = `/hf-inference/models/${UNDEPLOYED_VOICE}`;
    expectEnvelope(await tts({ text: "Habari", language: "sw", voice: UNDEPLOYED_VOICE }), 503, "PROVIDER_ERROR");
    expect(hf.stats.byPath[path]).toBe(1);

    const again = expectEnvelope(await tts({ text: "Habari", language: "sw", voice: UNDEPLOYED_VOICE }), 422, "UNSUPPORTED_VOICE");
    expect(again.message).toContain("is not available now");
    expect(hf.stats.byPath[path]).toBe(1);

    const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
    expect(health.body.checks.availability.unavailable).toContainEqual(
      expect.objectContaining({
        subject: `model:provider_c:${UNDEPLOYED_VOICE}`,
        source: "upstream",
        reason: expect.stringMatching(/not supported/),
      }),
    );
    const listing = await call(app.url, "GET", "/api/v1/languages?capability=tts", { key });
    const swahili = listing.body.languages.find((l: { code: string }) => l.code === "sw");
    const voices = swahili.tts.providers.flatMap((p: { voices: { id: string }[] }) => p.voices.map((v) => v.id));
    expect(voices.length).toBeGreaterThan(0);
    expect(voices).not.toContain(UNDEPLOYED_VOICE);
  });
});
