/** The emulators themselves: control API, stats, and the wire details clients are tested against. */
import { spawn } from "node:child_process";
import { getEventListeners, once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { KhayaClient } from "../khaya";
import { providerError, timed, within } from "../test-support";
import { ConnectionReset } from "./emulator";
import {
  createEmulator,
  type EmulatorServer,
  type FetchHandler,
  inProcessFetch,
  makeWav,
  parseWav,
  setDefaultSandboxTranslation,
  startEmulatorServer,
} from "./index";

// The wire details are asserted on the echo, which shows exactly what each emulator read; the hostile translation
// (what other tests run against) has its own tests in translation.test.ts.
beforeAll(() => setDefaultSandboxTranslation("echo"));

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("control API and stats", () => {
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer("khaya");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const translate = () => post(`${server.url}/v1/translate`, { in: "Hi", lang: "en-tw" });

  it("POST /__control replaces the controls; the next N calls fail, then it recovers", async () => {
    const res = await post(`${server.url}/__control`, { failMode: "status", status: 503, failNext: 2 });
    expect(res.status).toBe(200);
    expect((await translate()).status).toBe(503);
    expect((await translate()).status).toBe(503);
    expect((await translate()).status).toBe(200);
    const state = await (await fetch(`${server.url}/__control`)).json();
    expect(state.stats).toMatchObject({ requests: 3, byPath: { "/v1/translate": 3 } });
  });

  it("failAfter lets N requests through before the fault: with failNext 1, exactly the (N+1)th fails", async () => {
    await post(`${server.url}/__control`, { failMode: "status", status: 500, failAfter: 2, failNext: 1 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await translate()).status);
    expect(statuses).toEqual([200, 200, 500, 200, 200]);
  });

  it("PATCH merges, invalid controls are refused, /__control/reset clears", async () => {
    await post(`${server.url}/__control`, { latencyMs: 50 });
    await fetch(`${server.url}/__control`, { method: "PATCH", body: JSON.stringify({ failMode: "rate_limited", retryAfterSeconds: 7 }) });
    expect(server.controls).toMatchObject({ latencyMs: 50, failMode: "rate_limited", retryAfterSeconds: 7 });
    const bad = await post(`${server.url}/__control`, { failMode: "explode" });
    expect(bad.status).toBe(400);
    const limited = await translate();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    await fetch(`${server.url}/__control/reset`, { method: "POST" });
    expect(server.controls).toEqual({ latencyMs: 0, failMode: "none" });
    expect(server.stats.requests).toBe(0);
  });

  it("counts the maximum number of requests in flight at once", async () => {
    server.controls.latencyMs = 100;
    await Promise.all(Array.from({ length: 5 }, translate));
    expect(server.stats.maxInFlight).toBe(5);
    expect(server.stats.inFlight).toBe(0);
    await translate();
    expect(server.stats.maxInFlight).toBe(5);
  });

  it("failRatio fails an exact, evenly spread share of calls", async () => {
    server.setControls({ failMode: "status", status: 500, failRatio: 0.3 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await translate()).status);
    expect(statuses.filter((s) => s === 500)).toHaveLength(3);
  });

  it("pathPrefix limits faults to matching routes", async () => {
    server.setControls({ failMode: "status", status: 500, pathPrefix: "/asr" });
    expect((await translate()).status).toBe(200);
  });

  it("marks every answer as sandbox", async () => {
    expect((await translate()).headers.get("x-sandbox")).toBe("khaya");
  });

  it("counts translation calls and their text sizes; POST /__control/stats/reset zeroes them and keeps the controls", async () => {
    server.controls.latencyMs = 5;
    await post(`${server.url}/v1/translate`, { in: "Ɛyɛ 👨‍👩‍👧‍👦", lang: "tw-en" }); // 11 code points: the ZWJ family alone counts 7
    await post(`${server.url}/v2/translate`, { in: "Hello there", lang: "en-tw" });
    await fetch(`${server.url}/v2/languages`);
    const state = await (await fetch(`${server.url}/__control`)).json();
    expect(state.stats.translations).toEqual({ calls: 2, totalChars: 22, maxChars: 11 });
    expect(state.stats.requests).toBe(3);

    const cleared = await (await fetch(`${server.url}/__control/stats/reset`, { method: "POST" })).json();
    expect(cleared.stats).toMatchObject({ requests: 0, byPath: {}, translations: { calls: 0, totalChars: 0, maxChars: 0 } });
    expect(server.controls.latencyMs).toBe(5);
    await translate();
    expect(server.stats.translations.calls).toBe(1);
    server.resetStats();
    expect(server.stats).toMatchObject({ requests: 0, translations: { calls: 0 } });
  });
});

describe("translation call counter, in-process, on every emulator", () => {
  const cases = [
    ["sunbird", "/tasks/translate", { source_language: "eng", target_language: "lug", text: "Good morning" }],
    ["khaya", "/v1/translate", { in: "Good morning", lang: "en-tw" }],
    ["hf", "/hf-inference/models/Helsinki-NLP/opus-mt-en-sw", { inputs: "Good morning" }],
  ] as const;
  it.each(cases)("%s: counts translations, not other calls, whatever the answer", async (kind, path, body) => {
    const emulator = createEmulator(kind);
    const send = (p: string, b: unknown) =>
      emulator.handler(
        new Request(`http://${kind}.test${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) }),
      );
    expect((await send(path, body)).status).toBe(200);
    emulator.setControls({ failMode: "status", status: 503 });
    expect((await send(path, body)).status).toBe(503); // a failed call still reached the upstream
    emulator.setControls({});
    await send("/not-a-route", { text: "x".repeat(50), in: "x".repeat(50), inputs: "x".repeat(50) });
    expect(emulator.stats.translations).toEqual({ calls: 2, totalChars: 24, maxChars: 12 });
  });
});

describe("token damage (failMode tokens), on every emulator", () => {
  const cases = [
    ["sunbird", "/tasks/translate", (text: string) => ({ source_language: "eng", target_language: "lug", text })],
    ["khaya", "/v1/translate", (text: string) => ({ in: text, lang: "en-tw" })],
    ["hf", "/hf-inference/models/Helsinki-NLP/opus-mt-en-sw", (text: string) => ({ inputs: text })],
  ] as const;
  const damaged = [
    ["drop", "]  sent QZBX to QZCX"],
    ["duplicate", "QZAX QZAX sent QZBX to QZCX"],
    ["move", "QZCX sent QZBX to QZAX"],
    ["mangle", "QZ-AX sent QZBX to QZCX"],
  ] as const;
  it.each(cases)("%s: drops, duplicates, moves or mangles the tokens of its normal answer", async (kind, path, body) => {
    const emulator = createEmulator(kind);
    const send = async () => {
      const res = await emulator.handler(
        new Request(`http://${kind}.test${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body("QZAX sent QZBX to QZCX")),
        }),
      );
      expect(res.status).toBe(200);
      return JSON.stringify(await res.json());
    };
    for (const [variant, expected] of damaged) {
      emulator.setControls({ failMode: "tokens", variant });
      expect(await send()).toContain(expected);
    }
    emulator.setControls({ failMode: "tokens", variant: "drop", failNext: 1 });
    await send();
    expect(await send()).toContain("QZAX sent QZBX to QZCX");
  });
});

describe("Sunbird emulator wire", () => {
  const emulator = createEmulator("sunbird", { credential: "tok" });
  const call = (path: string, body: unknown, auth: string | null = "Bearer tok") =>
    emulator.handler(
      new Request(`http://sunbird.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(auth && { authorization: auth }) },
        body: JSON.stringify(body),
      }),
    );

  it("answers the full WorkerTranslationResponse shape, accepting names case-insensitively", async () => {
    const res = await call("/tasks/translate", { source_language: " ENGLISH ", target_language: "luganda", text: "Hi" });
    const body = await res.json();
    expect(body).toMatchObject({ delayTime: null, executionTime: null, status: "COMPLETED", workerId: null });
    expect(body.id).toMatch(/^trans-[0-9a-f]{32}$/);
    expect(body.output).toEqual({
      text: null,
      translated_text: "[sandbox:sunbird eng→lug] Hi",
      source_language: "eng",
      target_language: "lug",
      Error: null,
    });
  });

  it("infers the source when it is omitted", async () => {
    const body = await (await call("/tasks/translate", { target_language: "lug", text: "Hi" })).json();
    expect(body.output.source_language).toBeNull();
  });

  it("auth: no header → 'Not authenticated', bad token → 'Could not validate credentials', both with WWW-Authenticate", async () => {
    const none = await call("/tasks/translate", {}, null);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect(await none.json()).toEqual({ detail: "Not authenticated" });
    expect(await (await call("/tasks/translate", {}, "Bearer nope")).json()).toEqual({ detail: "Could not validate credentials" });
  });

  it("validation: 400 unsupported language (message names it), 400 same language, 422 empty text or missing target", async () => {
    const fra = await call("/tasks/translate", { source_language: "eng", target_language: "fra", text: "Hi" });
    expect(fra.status).toBe(400);
    expect((await fra.json()).message).toContain("'fra'");
    const same = await (await call("/tasks/translate", { source_language: "lug", target_language: "lug", text: "Hi" })).json();
    expect(same).toMatchObject({ error_code: "BAD_REQUEST", message: "Source and target languages must be different" });
    const empty = await call("/tasks/translate", { target_language: "lug", text: "   " });
    expect(empty.status).toBe(422);
    expect((await empty.json()).errors[0].loc).toEqual(["body", "text"]);
    expect((await call("/tasks/translate", { text: "Hi" })).status).toBe(422);
  });

  it("POST /tasks/nllb_translate hits the SPA catch-all: 405 whatever the token", async () => {
    const res = await call("/tasks/nllb_translate", { text: "Hi" }, null);
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ detail: "Method Not Allowed" });
  });

  it("language_id: {language}, 422 outside 3..200 characters", async () => {
    expect(await (await call("/tasks/language_id", { text: "Oli otya?" })).json()).toEqual({ language: "lug" });
    expect((await call("/tasks/language_id", { text: "Hi" })).status).toBe(422);
  });

  it("classify_language: tells Acholi from Ateso in any case, and answers 'language not detected' under 0.9", async () => {
    const classify = async (text: string) => (await (await call("/tasks/classify_language", { text })).json()).language;
    expect(await classify("Lutino tye ka cito i gang kwan")).toBe("ach");
    expect(await classify("DANO DUCU MITO KWO MABER")).toBe("ach");
    expect(await classify("Itunga kere ejai ejok noi")).toBe("teo");
    expect(await classify("Kesi elosete akwap kere")).toBe("teo");
    expect(await classify("The children go to school")).toBe("eng");
    // Half Acholi, half words no label knows: language_id still names its best label, classify_language does not.
    expect(await classify("Lutino tye ka Xylo Quorb Zanf")).toBe("language not detected");
    expect(await (await call("/tasks/language_id", { text: "Lutino tye ka Xylo Quorb Zanf" })).json()).toEqual({ language: "ach" });
    expect((await call("/tasks/classify_language", { text: "a".repeat(201) })).status).toBe(422);
  });
});

describe("emulator speech routes", () => {
  const wav = makeWav({ durationSeconds: 0.75, seed: 2 });

  it("Sunbird legacy /tasks/stt answers with Deprecation, Sunset and successor Link headers", async () => {
    const emulator = createEmulator("sunbird");
    const form = new FormData();
    form.set("audio", new Blob([wav], { type: "audio/wav" }), "a.wav");
    const res = await emulator.handler(new Request("http://sunbird.test/tasks/stt", { method: "POST", body: form }));
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("sunset")).toBe("Tue, 01 Dec 2026 00:00:00 GMT");
    // `language` defaults to lug on the legacy route.
    expect((await res.json()).audio_transcription).toMatch(/^\[sandbox:sunbird lug\] transcript of 0\.75 s of audio #[0-9a-f]{8}$/);
  });

  it("Sunbird: 422 for a language outside the STT enum, 400 without audio, 413 over 100 MB", async () => {
    const emulator = createEmulator("sunbird");
    const send = (form: FormData) => emulator.handler(new Request("http://sunbird.test/tasks/audio/transcriptions", { method: "POST", body: form }));
    const bad = new FormData();
    bad.set("language", "alz"); // Alur: Sunflower translates it, Sunbird's STT does not take it
    bad.set("audio", new Blob([wav], { type: "audio/wav" }), "a.wav");
    expect((await send(bad)).status).toBe(422);
    const rutooro = new FormData();
    rutooro.set("language", "ttj"); // in Sunbird's tutorial, not in its server's enum
    rutooro.set("audio", new Blob([wav], { type: "audio/wav" }), "a.wav");
    const refused = await send(rutooro);
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors[0]).toMatchObject({ loc: ["body", "language"], input: "ttj" });
    const noAudio = new FormData();
    noAudio.set("language", "lug");
    expect(await (await send(noAudio)).json()).toMatchObject({ error_code: "BAD_REQUEST" });
    const huge = await emulator.handler(
      new Request("http://sunbird.test/tasks/audio/transcriptions", {
        method: "POST",
        headers: { "content-length": String(101 * 1024 * 1024) },
        body: "x",
      }),
    );
    expect(huge.status).toBe(413);
  });

  it("Sunbird legacy /tasks/tts validates speaker_id (422) and answers {output:{audio_url, blob, sample_rate}}", async () => {
    const emulator = createEmulator("sunbird");
    const tts = (body: unknown) => emulator.handler(new Request("http://sunbird.test/tasks/tts", { method: "POST", body: JSON.stringify(body) }));
    expect((await tts({ text: "Hi", speaker_id: 9999 })).status).toBe(422);
    const { output } = await (await tts({ text: "Hi", speaker_id: 248 })).json();
    expect(output).toMatchObject({ sample_rate: 16_000, blob: expect.stringMatching(/\.wav$/) });
    const audio = await emulator.handler(new Request(output.audio_url));
    expect(parseWav(new Uint8Array(await audio.arrayBuffer()))?.sampleRate).toBe(16_000);
  });

  it("Sunbird /tasks/audio/speech/batch: auth, 1–128 items, Orpheus only, each item checked by index; a status per item; 502 when all fail; one quota unit a request", async () => {
    const faults = { failAfter: 0, failNext: 0 };
    const emulator = createEmulator("sunbird", { credential: "eyJ.b", sunbirdBatchFaults: faults });
    const batch = (body: unknown, token = "eyJ.b") =>
      emulator.handler(
        new Request("http://sunbird.test/tasks/audio/speech/batch", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `Item ${i}.`, voice: "salt_lug_0001" }));
    expect((await batch({ items: items(1) }, "wrong")).status).toBe(401);
    expect((await (await batch({ items: [] })).json()).errors[0].loc).toEqual(["body", "items"]);
    expect((await batch({ items: items(129) })).status).toBe(422);
    expect((await (await batch({ model: "spark-tts", items: items(1) })).json()).message).toMatch(/only supported for model='orpheus-3b-tts'/);
    const tooLong = await batch({ items: [...items(1), { text: "a".repeat(2_001) }] });
    expect(await tooLong.json()).toMatchObject({ error_code: "BAD_REQUEST", message: "item index 1: `text` is too long (max 2000 characters)." });
    const wrongLanguage = await (await batch({ items: [{ text: "Hi.", voice: "salt_lug_0001", language: "ach" }] })).json();
    expect(wrongLanguage.message).toBe("item index 0: speaker 'salt_lug_0001' is for language 'lug', not 'ach'; see /speakers/ach");

    Object.assign(faults, { failAfter: 1, failNext: 1 });
    const res = await batch({ items: items(3) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ model: "orpheus-3b-tts", platform: "modal", request_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(body.results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [0, "ok"],
      [1, "error"],
      [2, "ok"],
    ]);
    expect(body.results[1]).toMatchObject({ audio_url: null, error_code: "EXTERNAL_SERVICE_ERROR", error_detail: "Orpheus audio upload failed" });
    const audio = await emulator.handler(new Request(body.results[2].audio_url));
    expect(parseWav(new Uint8Array(await audio.arrayBuffer()))).toMatchObject({ sampleRate: 24_000 });
    expect(body.results[2].audio_size_bytes).toBe(Number(audio.headers.get("content-length") ?? (await audio.clone().arrayBuffer()).byteLength));

    Object.assign(faults, { failNext: 2 });
    const allFailed = await batch({ items: items(2) });
    expect(allFailed.status).toBe(502);
    expect(await allFailed.json()).toMatchObject({ error_code: "EXTERNAL_SERVICE_ERROR", message: "all 2 batch items failed during upload" });
    // Every batch request to the API costs a unit, however many items it held or failed (the downloads cost none).
    expect(emulator.stats.quotaUnits).toBe(emulator.stats.byPath["/tasks/audio/speech/batch"]);
  });

  it("Sunbird /gcs refuses a tampered signature (403) and an unknown object (404)", async () => {
    const emulator = createEmulator("sunbird");
    const res = await emulator.handler(
      new Request("http://sunbird.test/tasks/audio/speech", { method: "POST", body: JSON.stringify({ text: "Hi" }) }),
    );
    const { audio_url: url } = await res.json();
    expect((await emulator.handler(new Request(url.replace(/Signature=.{4}/, "Signature=0000")))).status).toBe(403);
    expect((await emulator.handler(new Request(url))).status).toBe(200);
  });

  it("Khaya: /asr/v1 answers a bare string, v3 warns about legacy codes, /tts/v2/tts is 404, v2 checks speaker_id", async () => {
    const emulator = createEmulator("khaya");
    const asr = (path: string) =>
      emulator.handler(new Request(`http://khaya.test${path}`, { method: "POST", headers: { "content-type": "audio/wav" }, body: wav }));
    expect(typeof (await (await asr("/asr/v1/transcribe?language=twi")).json())).toBe("string");
    expect((await (await asr("/asr/v3/transcribe?language=tw")).json()).warnings[0]).toMatch(/legacy code/);
    expect((await (await asr("/asr/v3/transcribe?language=twi")).json()).warnings).toBeUndefined();
    const tts = (path: string, body: unknown) =>
      emulator.handler(new Request(`http://khaya.test${path}`, { method: "POST", body: JSON.stringify(body) }));
    expect((await tts("/tts/v2/tts", { text: "Hi", language: "twi" })).status).toBe(404);
    const invalid = await (await tts("/tts/v2/synthesize", { text: "Hi", language: "twi", speaker_id: "twi_speaker_4" })).json();
    expect(invalid.error.details[0].code).toBe("INVALID_SPEAKER");
    // v1 silently replaces an unknown speaker, as upstream does.
    const v1 = await tts("/tts/v1/tts", { text: "Hi", language: "twi", speaker: "twi_speaker_4" });
    expect(v1.headers.get("content-type")).toBe("audio/wav");
  });
});

describe("Khaya emulator wire", () => {
  const emulator = createEmulator("khaya", { credential: "key" });
  const call = (path: string, body: unknown, key: string | null = "key") =>
    emulator.handler(
      new Request(`http://khaya.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(key && { "ocp-apim-subscription-key": key }) },
        body: JSON.stringify(body),
      }),
    );

  it("APIM: missing and invalid keys are distinct 401s; ?subscription-key= works too", async () => {
    expect((await (await call("/v1/translate", {}, null)).json()).message).toMatch(/missing subscription key/);
    expect((await (await call("/v1/translate", {}, "bad")).json()).message).toMatch(/invalid subscription key/);
    const viaQuery = await emulator.handler(
      new Request("http://khaya.test/v1/translate?subscription-key=key", { method: "POST", body: JSON.stringify({ in: "Hi", lang: "en-tw" }) }),
    );
    expect(viaQuery.status).toBe(200);
  });

  it("v1 accepts en-tw, en-twi and eng-twi; answers a bare JSON string", async () => {
    for (const lang of ["en-tw", "en-twi", "eng-twi"]) {
      const res = await call("/v1/translate", { in: "Hi", lang });
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(JSON.parse(await res.text())).toBe(`[sandbox:khaya ${lang}] Hi`);
    }
  });

  it("v2 rejects two-letter codes naming the replacement", async () => {
    const body = await (await call("/v2/translate", { in: "Hi", lang: "en-tw" })).json();
    expect(body.error.details[0]).toMatchObject({ code: "UNSUPPORTED_LANGUAGE_CODE", message: "Use 'eng' instead of 'en'" });
    expect((await call("/v2/translate", { in: "Hi", lang: "eng-twi" })).status).toBe(200);
  });

  it("backend validation: UNSUPPORTED_LANGUAGE_PAIR for en-zz, MISSING_TEXT for empty input", async () => {
    const pair = await (await call("/v1/translate", { in: "Hi", lang: "en-zz" })).json();
    expect(pair.error).toMatchObject({ code: "VALIDATION_FAILED", details: [{ code: "UNSUPPORTED_LANGUAGE_PAIR", target: "language_pair" }] });
    const empty = await (await call("/v1/translate", { in: "", lang: "en-tw" })).json();
    expect(empty.error.details[0].code).toBe("MISSING_TEXT");
  });

  it("GET /v2/languages maps code → name", async () => {
    const res = await emulator.handler(new Request("http://khaya.test/v2/languages", { headers: { "ocp-apim-subscription-key": "key" } }));
    expect((await res.json()).languages).toMatchObject({ eng: "English", twi: "Twi", yor: "Yoruba", kik: "Kikuyu" });
  });

  it("the html fault is a 200 text/html page", async () => {
    emulator.setControls({ failMode: "html" });
    const res = await call("/v1/translate", { in: "Hi", lang: "en-tw" });
    emulator.reset();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });
});

describe("HF emulator wire", () => {
  const emulator = createEmulator("hf", { credential: "hf_x" });
  const call = (path: string, body: unknown, token: string | null = "hf_x") =>
    emulator.handler(
      new Request(`http://hf.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      }),
    );

  it("answers [{translation_text}] with an x-request-id", async () => {
    const res = await call("/hf-inference/models/Helsinki-NLP/opus-mt-en-sw", { inputs: "Hi" });
    expect(await res.json()).toEqual([{ translation_text: "[sandbox:hf Helsinki-NLP/opus-mt-en-sw en→sw] Hi" }]);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("401 for a bad token; 410 on the legacy path; 404 for unknown models", async () => {
    expect(await (await call("/hf-inference/models/Helsinki-NLP/opus-mt-en-sw", { inputs: "Hi" }, "nope")).json()).toEqual({
      error: "Invalid credentials in Authorization header",
    });
    expect((await call("/models/Helsinki-NLP/opus-mt-en-sw", { inputs: "Hi" })).status).toBe(410);
    expect((await call("/hf-inference/models/someone/unknown-model", { inputs: "Hi" })).status).toBe(404);
  });

  it("NLLB requires FLORES-200 src_lang and tgt_lang", async () => {
    const path = "/hf-inference/models/facebook/nllb-200-distilled-600M";
    expect((await call(path, { inputs: "Hi" })).status).toBe(400);
    expect((await call(path, { inputs: "Hi", parameters: { src_lang: "en", tgt_lang: "sw" } })).status).toBe(400);
    expect((await call(path, { inputs: "Hi", parameters: { src_lang: "eng_Latn", tgt_lang: "swh_Latn" } })).status).toBe(200);
  });

  it("opus-mt-en-mul without a >>xxx<< token answers in an unknown language, visibly", async () => {
    const body = await (await call("/hf-inference/models/Helsinki-NLP/opus-mt-en-mul", { inputs: "Hi" })).json();
    expect(body[0].translation_text).toBe("[sandbox:hf Helsinki-NLP/opus-mt-en-mul en→?] Hi");
  });

  it("the loading fault is 503 {error, estimated_time}", async () => {
    emulator.setControls({ failMode: "loading", estimatedTimeSeconds: 12.5 });
    const res = await call("/hf-inference/models/Helsinki-NLP/opus-mt-en-sw", { inputs: "Hi" });
    emulator.reset();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "Model Helsinki-NLP/opus-mt-en-sw is currently loading", estimated_time: 12.5 });
  });
});

describe("inProcessFetch", () => {
  const url = "http://khaya.sandbox.invalid/v1/translate";
  const init = (signal?: AbortSignal): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ in: "Hello", lang: "en-tw" }),
    ...(signal && { signal }),
  });
  /** The emulator behind a handler that drops the request's signal, as a route that never looks at it would. */
  const deaf =
    (handler: FetchHandler): FetchHandler =>
    (req) =>
      handler(new Request(req.url, { method: req.method, headers: req.headers, body: req.body, duplex: "half" } as RequestInit));
  /** Settles within `ms` or reports "pending" (so a regression fails the assertion instead of hanging the test). */
  const settle = <T>(p: Promise<T>, ms = 1_500) =>
    Promise.race([
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      new Promise<"pending">((r) => setTimeout(() => r("pending"), ms)),
    ]);

  it("hang fault + AbortSignal.timeout(200): rejects with the signal's reason within ~1 s", async () => {
    const emulator = createEmulator("khaya", { controls: { failMode: "hang" } });
    const { value: outcome, ms } = await timed(() => settle(inProcessFetch(emulator.handler)(url, init(AbortSignal.timeout(200)))));
    expect(outcome).toMatchObject({ error: expect.objectContaining({ name: "TimeoutError" }) });
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(1_000);
  });

  it("rejects at the abort even when the handler ignores the signal; long latency likewise", async () => {
    const emulator = createEmulator("khaya", { controls: { failMode: "hang" } });
    const never: FetchHandler = () => new Promise<Response>(() => {});
    for (const handler of [deaf(emulator.handler), never]) {
      const { value: outcome, ms } = await timed(() => settle(inProcessFetch(handler)(url, init(AbortSignal.timeout(200)))));
      expect(outcome).toMatchObject({ error: expect.objectContaining({ name: "TimeoutError" }) });
      expect(ms).toBeLessThan(1_000);
    }
    const slow = createEmulator("khaya", { controls: { latencyMs: 60_000 } });
    const controller = new AbortController();
    const pending = settle(inProcessFetch(deaf(slow.handler))(url, init(controller.signal)));
    setTimeout(() => controller.abort(new Error("client gave up")), 100);
    expect(await pending).toMatchObject({ error: expect.objectContaining({ message: "client gave up" }) });
  });

  it("an already-aborted signal rejects before the handler runs", async () => {
    const handler = vi.fn<FetchHandler>(async () => new Response("ok"));
    const reason = new Error("aborted before the call");
    await expect(inProcessFetch(handler)(url, init(AbortSignal.abort(reason)))).rejects.toBe(reason);
    expect(handler).not.toHaveBeenCalled();
  });

  it("a handler that fails is a network error: TypeError('fetch failed') with the cause", async () => {
    const boom = new Error("boom");
    const throwing: FetchHandler = async () => {
      throw boom;
    };
    const syncThrowing = (() => {
      throw boom;
    }) as unknown as FetchHandler;
    for (const handler of [throwing, syncThrowing]) {
      const err = await inProcessFetch(handler)(url, init()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect(err).toMatchObject({ message: "fetch failed", cause: boom });
    }
    const reset = createEmulator("khaya", { controls: { failMode: "reset" } });
    const err = await inProcessFetch(reset.handler)(url, init()).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: "fetch failed", cause: expect.any(ConnectionReset) });
  });

  it("removes its abort listener once the call settles (answered or failed)", async () => {
    const emulator = createEmulator("khaya");
    const fetch = inProcessFetch(emulator.handler);
    // Baseline: what constructing the Request alone leaves on the signal (undici's follow listener).
    const plain = new AbortController();
    new Request(url, init(plain.signal));
    new Request(url, init(plain.signal));
    const baseline = getEventListeners(plain.signal, "abort").length;
    const controller = new AbortController();
    expect((await fetch(url, init(controller.signal))).status).toBe(200);
    emulator.setControls({ failMode: "reset" });
    await expect(fetch(url, init(controller.signal))).rejects.toThrow("fetch failed");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(baseline);
  });

  it("a client with a short per-attempt timeout against a hanging in-process emulator fails with kind timeout, in time", async () => {
    const emulator = createEmulator("khaya", { controls: { failMode: "hang" } });
    for (const handler of [emulator.handler, deaf(emulator.handler)]) {
      emulator.reset();
      emulator.setControls({ failMode: "hang" });
      const client = new KhayaClient({
        baseUrl: "http://khaya.sandbox.invalid",
        mode: "sandbox",
        fetch: inProcessFetch(handler),
        policy: { attemptTimeoutMs: 150, maxRetries: 1, backoffBaseMs: 10, backoffMaxMs: 20 },
      });
      const deadline = within(1_000);
      const { value: outcome, ms } = await timed(() =>
        settle(providerError(client.translate({ text: "Hello", source: "en", target: "tw", deadline }))),
      );
      expect(outcome).toMatchObject({ value: expect.objectContaining({ provider: "provider_b", kind: "timeout" }) });
      expect(ms).toBeLessThan(1_000);
      expect(emulator.stats.requests).toBe(2); // both attempts reached the emulator and were cut
    }
  });
});

describe("WAV generator", () => {
  it("writes a valid 16 kHz mono PCM file of the requested duration, deterministically", () => {
    const wav = makeWav({ durationSeconds: 1.5, seed: 7 });
    expect(parseWav(wav)).toEqual({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, durationSeconds: 1.5 });
    expect(wav.byteLength).toBe(44 + 1.5 * 16_000 * 2);
    expect(makeWav({ durationSeconds: 1.5, seed: 7 })).toEqual(wav);
    expect(makeWav({ durationSeconds: 1.5, seed: 8 })).not.toEqual(wav);
    const samples = new Int16Array(wav.buffer.slice(44));
    const peak = samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
    expect(peak).toBeGreaterThan(5_000);
    expect(peak).toBeLessThan(32_767);
  });

  it("rejects what is not a WAV", () => {
    expect(parseWav(new TextEncoder().encode("ID3 not a wav file at all"))).toBeUndefined();
    expect(parseWav(new Uint8Array(4))).toBeUndefined();
  });
});

describe("serve.ts CLI", () => {
  it("starts a standalone emulator that prints its URL and is driven over /__control", async () => {
    const script = path.join(__dirname, "serve.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script, "--kind", "hf", "--port", "0", "--credential", "hf_cli"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const { kind, url } = JSON.parse(line);
      expect(kind).toBe("hf");
      const ok = await post(`${url}/hf-inference/models/Helsinki-NLP/opus-mt-en-sw`, { inputs: "Hi" }, { authorization: "Bearer hf_cli" });
      expect(ok.status).toBe(200);
      await post(`${url}/__control`, { failMode: "status", status: 500 });
      expect((await post(`${url}/hf-inference/models/Helsinki-NLP/opus-mt-en-sw`, { inputs: "Hi" }, { authorization: "Bearer hf_cli" })).status).toBe(
        500,
      );
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});
