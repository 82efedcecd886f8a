import { SUNBIRD_ORPHEUS_VOICES, SUNBIRD_SPARK_VOICES } from "../codes";
import { isRecord } from "../http";
import type { EmulatorOptions } from "./emulator";
import { binary, hash32, hex, json, readJson, sandboxMark, text } from "./respond";
import { apiError, validationError } from "./sunbird-wire";
import { makeWav, measuredSeconds, speechDurationSeconds } from "./wav";

const SPEECH_MIME_TYPES = [
  "audio/mpeg",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/ogg",
  "audio/x-m4a",
  "audio/mp4",
  "audio/aac",
  "audio/webm",
];
const SPARK_NAMES: Record<string, string> = {
  acholi_female: "241",
  ateso_female: "242",
  runyankore_female: "243",
  lugbara_female: "245",
  swahili_male: "246",
  luganda_female: "248",
};
const DEPRECATION_HEADERS = {
  deprecation: "true",
  sunset: "Tue, 01 Dec 2026 00:00:00 GMT",
  link: '</tasks/audio/transcriptions>; rel="successor-version"',
};
/**
 * The `language` enum of the STT endpoint (SttbLanguage): ten values. Sunbird's tutorial also lists Rutooro (ttj),
 * which the server refuses with a 422 like any value outside the enum.
 */
export const SUNBIRD_STT_ENUM: readonly string[] = ["ach", "teo", "eng", "lug", "lgg", "nyn", "swa", "kin", "xog", "myx"];
/** Past this, Sunbird's RunPod paths transcribe only the beginning and say so (was_audio_trimmed). */
const TRIM_SECONDS = 600;
/** How long the default path's backend works on a transcription before it gives up. */
const DEFAULT_STT_WAIT_MS = 120_000;
/**
 * The longest recording the emulated default path finishes within that wait: Whisper large-v3 at about 2.5 times real
 * time once a cold start is counted, so a ten-minute voice note sent whole times out, as it can upstream.
 */
const DEFAULT_STT_LONGEST_SECONDS = 300;
const DEFAULT_SIGNED_URL_TTL_MS = 30 * 60_000;
/** Orpheus's text limit, for a single synthesis and for each batch item. */
const ORPHEUS_MAX_CHARS = 2000;
/** What one batch request may hold. */
const BATCH_MAX_ITEMS = 128;
/** The batch endpoint's voice when an item names none, whatever its language. */
const BATCH_DEFAULT_VOICE = "salt_lug_0001";
const ORPHEUS_SAMPLE_RATE = 24_000;

/**
 * Items of batch syntheses that fail, the way Sunbird's fail when an item's audio does not reach storage: the next
 * `failAfter` items (counted across requests) are synthesised, then the `failNext` after them fail; both count down.
 * A test keeps the object and changes it while the emulator runs.
 */
export interface SunbirdBatchFaults {
  failAfter: number;
  failNext: number;
}
const MAX_STORED_OBJECTS = 1_000;

interface StoredAudio {
  text: string;
  voice: string;
  sampleRate: number;
  expiresAt: number;
}

/**
 * Sunbird speech: STT (multipart), TTS returning a signed GCS URL, and the bucket itself (GET /gcs/<object>), with
 * expiry and signature checks so a client that hands out or caches the URL would be caught.
 */
export function sunbirdSpeechRoutes(opts: EmulatorOptions, now: () => number) {
  const ttlMs = opts.signedUrlTtlMs ?? DEFAULT_SIGNED_URL_TTL_MS;
  const sttWaitMs = opts.sunbirdSttWaitMs ?? DEFAULT_STT_WAIT_MS;
  const longestSeconds = opts.sunbirdSttLongestSeconds ?? DEFAULT_STT_LONGEST_SECONDS;
  // Objects keep only what is needed to re-render the WAV, so a long-running sandbox does not hoard audio.
  const objects = new Map<string, StoredAudio>();
  let counter = 0;

  const sign = (object: string, expires: number) => hex(hash32(`${object}|${expires}|sandbox-signing-key`), 64);

  /**
   * The default path (platform=modal) forwards any bytes to the model, checks no type and trims nothing: a recording the
   * model cannot finish within its wait gets a 502 after that wait, one it cannot decode a 502 at once. The RunPod paths
   * (platform=runpod, and the legacy /tasks/stt) check the type and trim past ten minutes.
   */
  const transcribe =
    (legacy: boolean) =>
    async (req: Request): Promise<Response> => {
      const extra = legacy ? DEPRECATION_HEADERS : {};
      let form: FormData;
      try {
        form = await req.formData();
      } catch {
        return validationError(["body"], "Expected multipart/form-data", null);
      }
      const language = form.get("language") ?? (legacy ? "lug" : null);
      if (typeof language !== "string" || !SUNBIRD_STT_ENUM.includes(language)) {
        const allowed = SUNBIRD_STT_ENUM.map((l) => `'${l}'`).join(", ");
        return validationError(["body", "language"], language === null ? "Field required" : `Input should be ${allowed}`, language);
      }
      const audio = form.get("audio");
      if (!(audio instanceof Blob)) return apiError(400, "BAD_REQUEST", "One of 'audio' or 'gcs_blob_name' is required.");
      const runpod = legacy || form.get("platform") === "runpod";
      const type = audio.type.split(";")[0].trim().toLowerCase();
      if (runpod && !SPEECH_MIME_TYPES.includes(type))
        return apiError(422, "VALIDATION_ERROR", "Invalid audio file type", [{ field: "audio", value: type || null }]);
      const bytes = new Uint8Array(await audio.arrayBuffer());
      const original = bytes.byteLength === 0 ? undefined : await measuredSeconds(bytes);
      if (original === undefined) {
        if (runpod) return apiError(400, "BAD_REQUEST", "Could not decode audio file. Please ensure the file is not corrupted.");
        return apiError(502, "EXTERNAL_SERVICE_ERROR", "Transcription failed");
      }
      if (!runpod && original > longestSeconds) {
        await sleep(sttWaitMs, req.signal);
        return apiError(502, "EXTERNAL_SERVICE_ERROR", "STT service timeout - audio may be too long");
      }
      const trimmed = runpod && original > TRIM_SECONDS;
      const seconds = Math.min(original, TRIM_SECONDS);
      const transcript = sandboxMark("sunbird", language, `transcript of ${seconds.toFixed(2)} s of audio #${hex(hash32(bytes), 8)}`);
      return json(
        200,
        {
          audio_transcription: transcript,
          diarization_output: {},
          formatted_diarization_output: null,
          audio_transcription_id: null,
          audio_url: null,
          language,
          was_audio_trimmed: trimmed,
          original_duration_minutes: trimmed ? Number((original / 60).toFixed(2)) : null,
        },
        extra,
      );
    };

  const store = (origin: string, model: string, audio: Omit<StoredAudio, "expiresAt">) => {
    const t = now();
    for (const [key, value] of objects) if (value.expiresAt <= t || objects.size >= MAX_STORED_OBJECTS) objects.delete(key);
    counter += 1;
    const day = new Date(t).toISOString().slice(0, 10);
    const object = `${model.replace(/-.*$/, "")}_tts/${day}/${hex(hash32(audio.text) + counter, 32)}.wav`;
    const expiresAt = t + ttlMs;
    objects.set(object, { ...audio, expiresAt });
    const expires = Math.floor(expiresAt / 1000);
    const url = `${origin}/gcs/${object}?X-Goog-Expires=${expires}&X-Goog-Signature=${sign(object, expires)}`;
    return { object, url, expiresAt, durationSeconds: speechDurationSeconds(audio.text) };
  };

  const speech = async (req: Request): Promise<Response> => {
    const body = await readJson(req);
    if (!isRecord(body)) return validationError(["body"], "Input should be a valid dictionary", body);
    const value = typeof body.text === "string" ? body.text.trim() : "";
    if (!value) return validationError(["body", "text"], "String should have at least 1 character", body);
    const model = body.model ?? "orpheus-3b-tts";
    const platform = body.platform ?? "modal";
    const mode = body.response_mode ?? "url";
    if (model !== "orpheus-3b-tts" && model !== "spark-tts")
      return validationError(["body", "model"], "Input should be 'orpheus-3b-tts' or 'spark-tts'", model);
    if (mode !== "url") return apiError(400, "BAD_REQUEST", "The sandbox serves response_mode='url' only.");
    let voice: string;
    let sampleRate: number;
    let language: string | null = null;
    if (model === "orpheus-3b-tts") {
      if (platform === "runpod") return apiError(400, "BAD_REQUEST", "orpheus-3b-tts runs on platform='modal' only.");
      if (value.length > ORPHEUS_MAX_CHARS)
        return apiError(400, "BAD_REQUEST", `Text is too long for orpheus-3b-tts (max ${ORPHEUS_MAX_CHARS} characters).`);
      language = typeof body.language === "string" ? body.language : null;
      const catalog = Object.values(SUNBIRD_ORPHEUS_VOICES).flat();
      if (typeof body.voice === "string" && !catalog.includes(body.voice))
        return apiError(400, "BAD_REQUEST", `Unknown orpheus voice '${body.voice}'.`);
      voice = typeof body.voice === "string" ? body.voice : (SUNBIRD_ORPHEUS_VOICES[language ?? "lug"]?.[0] ?? "salt_lug_0001");
      sampleRate = ORPHEUS_SAMPLE_RATE;
    } else {
      if (body.language !== undefined) return apiError(400, "BAD_REQUEST", "'language' is only valid for model='orpheus-3b-tts'.");
      if (body.temperature !== undefined && platform === "modal")
        return apiError(400, "BAD_REQUEST", "'temperature' is not supported for spark-tts on platform='modal'.");
      if (value.length > 10_000) return apiError(400, "BAD_REQUEST", "Text is too long for spark-tts (max 10000 characters).");
      const requested = body.voice === undefined ? "248" : String(body.voice);
      const id = SUNBIRD_SPARK_VOICES[requested] ? requested : SPARK_NAMES[requested.toLowerCase()];
      if (!id) return apiError(400, "BAD_REQUEST", `Unknown spark-tts voice '${requested}'.`);
      voice = id;
      language = SUNBIRD_SPARK_VOICES[id];
      sampleRate = 16_000;
    }
    const started = now();
    const stored = store(new URL(req.url).origin, model, { text: value, voice, sampleRate });
    return json(200, {
      audio_url: stored.url,
      model,
      platform,
      voice,
      audio_url_expires_at: new Date(stored.expiresAt).toISOString(),
      language,
      sample_rate: sampleRate,
      duration_seconds: Number(stored.durationSeconds.toFixed(2)),
      gcs_object: stored.object,
      request_id: hex(hash32(stored.object), 32),
      timings_ms: { inference_ms: 0, upload_ms: 0, signed_url_ms: 0, total_ms: now() - started },
    });
  };

  /**
   * POST /tasks/audio/speech/batch: 1 to 128 Orpheus items, each validated before any work (a bad item fails the whole
   * request with 400, naming its index), then each synthesised and stored on its own: an item whose upload fails is
   * answered with status "error" beside the others (see SunbirdBatchFaults). 200 when any item succeeded; 502 when every
   * item failed — the quota unit is spent either way (the emulator core counts it on arrival).
   */
  const batch = async (req: Request): Promise<Response> => {
    const body = await readJson(req);
    if (!isRecord(body)) return validationError(["body"], "Input should be a valid dictionary", body);
    const model = body.model ?? "orpheus-3b-tts";
    if (model !== "orpheus-3b-tts" && model !== "spark-tts")
      return validationError(["body", "model"], "Input should be 'orpheus-3b-tts' or 'spark-tts'", model);
    const items = body.items;
    if (!Array.isArray(items))
      return validationError(["body", "items"], items === undefined ? "Field required" : "Input should be a valid list", items);
    if (items.length === 0 || items.length > BATCH_MAX_ITEMS) {
      const bound = items.length === 0 ? "at least 1 item" : `at most ${BATCH_MAX_ITEMS} items`;
      return validationError(["body", "items"], `List should have ${bound} after validation, not ${items.length}`, null);
    }
    const parsed: { text: string; voice: string; language: string | null }[] = [];
    for (const [i, item] of items.entries()) {
      if (!isRecord(item)) return validationError(["body", "items", i], "Input should be a valid dictionary", item);
      const value = typeof item.text === "string" ? item.text.trim() : "";
      if (!value) return validationError(["body", "items", i, "text"], "Value error, text must not be empty", item.text);
      parsed.push({
        text: value,
        voice: typeof item.voice === "string" ? item.voice : BATCH_DEFAULT_VOICE,
        language: typeof item.language === "string" ? item.language : null,
      });
    }
    if (model !== "orpheus-3b-tts") return apiError(400, "BAD_REQUEST", "batch synthesis is only supported for model='orpheus-3b-tts'.");
    for (const [i, { text: value, voice, language }] of parsed.entries()) {
      if (value.length > ORPHEUS_MAX_CHARS)
        return apiError(400, "BAD_REQUEST", `item index ${i}: \`text\` is too long (max ${ORPHEUS_MAX_CHARS} characters).`);
      const own = orpheusLanguageOf(voice);
      if (!own) return apiError(400, "BAD_REQUEST", `item index ${i}: speaker_id '${voice}' not found; see /speakers`);
      if (language !== null && !SUNBIRD_ORPHEUS_VOICES[language]?.length)
        return apiError(400, "BAD_REQUEST", `item index ${i}: language '${language}' not supported; supported: ${orpheusLanguages()}`);
      if (language !== null && own !== language)
        return apiError(
          400,
          "BAD_REQUEST",
          `item index ${i}: speaker '${voice}' is for language '${own}', not '${language}'; see /speakers/${language}`,
        );
    }
    const started = now();
    const requestId = hex(hash32(`batch|${started}|${counter}`), 32);
    const origin = new URL(req.url).origin;
    const results = parsed.map(({ text: value, voice }, index) => {
      if (batchItemFails()) {
        return {
          ...BATCH_ITEM_EMPTY,
          index,
          status: "error",
          voice,
          error_code: "EXTERNAL_SERVICE_ERROR",
          error_detail: "Orpheus audio upload failed",
        };
      }
      const stored = store(origin, "orpheus-3b-tts", { text: value, voice, sampleRate: ORPHEUS_SAMPLE_RATE });
      return {
        ...BATCH_ITEM_EMPTY,
        index,
        status: "ok",
        voice,
        audio_url: stored.url,
        audio_url_expires_at: new Date(stored.expiresAt).toISOString(),
        language: orpheusLanguageOf(voice),
        duration_seconds: Number(stored.durationSeconds.toFixed(2)),
        audio_size_bytes: 44 + 2 * Math.max(1, Math.round(stored.durationSeconds * ORPHEUS_SAMPLE_RATE)),
        gcs_object: stored.object,
        request_id: requestId,
      };
    });
    if (results.every((r) => r.status === "error"))
      return apiError(502, "EXTERNAL_SERVICE_ERROR", `all ${results.length} batch items failed during upload`);
    return json(200, {
      model,
      platform: "modal",
      results,
      request_id: requestId,
      timings_ms: { inference_ms: 0, upload_ms: 0, total_ms: now() - started },
    });
  };

  /** Whether the next batch item fails (SunbirdBatchFaults). */
  const batchItemFails = (): boolean => {
    const faults = opts.sunbirdBatchFaults;
    if (!faults) return false;
    if (faults.failAfter > 0) {
      faults.failAfter -= 1;
      return false;
    }
    if (faults.failNext <= 0) return false;
    faults.failNext -= 1;
    return true;
  };

  const legacyTts = async (req: Request): Promise<Response> => {
    const body = await readJson(req);
    if (!isRecord(body) || typeof body.text !== "string" || !body.text.trim())
      return json(400, { detail: "`text` is required for TTS and must be a non-empty string" }, DEPRECATION_HEADERS);
    if (body.text.length > 10_000) return json(400, { detail: "`text` is too long for TTS (max 10000 characters)" }, DEPRECATION_HEADERS);
    const speaker = body.speaker_id === undefined ? "248" : String(body.speaker_id);
    if (!SUNBIRD_SPARK_VOICES[speaker])
      return validationError(["body", "speaker_id"], "Input should be 241, 242, 243, 245, 246 or 248", body.speaker_id);
    const stored = store(new URL(req.url).origin, "spark-tts", { text: body.text, voice: speaker, sampleRate: 16_000 });
    return json(200, { output: { audio_url: stored.url, blob: stored.object, sample_rate: 16_000 } }, DEPRECATION_HEADERS);
  };

  /** GET /gcs/<object>?X-Goog-Expires&X-Goog-Signature, answered the way Cloud Storage answers (XML errors). */
  const download = (url: URL): Response | undefined => {
    if (!url.pathname.startsWith("/gcs/")) return undefined;
    const object = decodeURIComponent(url.pathname.slice("/gcs/".length));
    const expires = Number(url.searchParams.get("X-Goog-Expires"));
    if (url.searchParams.get("X-Goog-Signature") !== sign(object, expires))
      return gcsError(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.");
    if (now() >= expires * 1000) return gcsError(400, "ExpiredToken", "The provided token has expired. Request signature expired.");
    const stored = objects.get(object);
    if (!stored) return gcsError(404, "NoSuchKey", "The specified key does not exist.");
    const audio = makeWav({
      durationSeconds: speechDurationSeconds(stored.text),
      sampleRate: stored.sampleRate,
      seed: hash32(`${stored.voice}|${stored.text}`),
    });
    return binary(200, audio, "audio/wav");
  };

  return {
    routes: {
      "/tasks/audio/transcriptions": transcribe(false),
      "/tasks/stt": transcribe(true),
      "/tasks/audio/speech": speech,
      "/tasks/audio/speech/batch": batch,
      "/tasks/tts": legacyTts,
    },
    download,
  };
}

/** A batch item's fields that only some items carry, as Sunbird's answer serialises them when unset. */
const BATCH_ITEM_EMPTY = {
  audio_url: null,
  audio_url_expires_at: null,
  language: null,
  sample_rate: ORPHEUS_SAMPLE_RATE,
  duration_seconds: null,
  audio_size_bytes: null,
  gcs_object: null,
  request_id: null,
  error_code: null,
  error_detail: null,
};

/** The language of an Orpheus catalog voice, or undefined for a voice the catalog does not have. */
function orpheusLanguageOf(voice: string): string | undefined {
  return Object.keys(SUNBIRD_ORPHEUS_VOICES).find((language) => SUNBIRD_ORPHEUS_VOICES[language].includes(voice));
}

function orpheusLanguages(): string {
  return `[${Object.keys(SUNBIRD_ORPHEUS_VOICES)
    .filter((l) => SUNBIRD_ORPHEUS_VOICES[l].length > 0)
    .sort()
    .map((l) => `'${l}'`)
    .join(", ")}]`;
}

function gcsError(status: number, code: string, message: string): Response {
  return text(
    status,
    `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    "application/xml; charset=UTF-8",
  );
}

/** Waits `ms`, or until the client goes away. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
