import { isRecord } from "../http";
import type { EmulatorControls } from "./controls";
import type { EmulatorOptions, ProviderBehaviour } from "./emulator";
import { binary, hash32, hex, json, readJson, sandboxMark, text } from "./respond";
import { sandboxTranslation } from "./translation";
import { makeWav, measuredSeconds, parseWav, speechDurationSeconds } from "./wav";

const MODELS_PREFIX = "/hf-inference/models/";
/** Whisper's input window: 3,000 mel frames of 10 ms. */
const WHISPER_MAX_SECONDS = 30;
/** transformers' ASR pipeline on more than 30 s of audio without return_timestamps. */
const LONG_FORM_MESSAGE =
  "You have passed more than 3000 mel input features (> 30 seconds) which automatically enables long-form generation which requires the model to predict timestamp tokens. Please either pass `return_timestamps=True` or make sure to pass no more than 3000 mel input features.";

/** The Hub's model information route (huggingface.co/api/models/{id}), served by the same emulator. */
const HUB_PREFIX = "/api/models/";
type Task = "translation" | "asr" | "tts";

/**
 * Which models hf-inference serves. Mutable: a test can declare a model undeployed (or deployed again) at any time,
 * and the next request — inference or Hub model information — sees it.
 */
export interface HfDeployment {
  /** Answered with 404 "Not Found" (the pair model is absent). */
  notDeployed: Set<string>;
  /** Answered with 400 "Model … is not supported by provider hf-inference" (on the Hub, but no inference provider). */
  notSupported: Set<string>;
}

/**
 * What public reports say hf-inference does not serve (third-party observations, mid-2026): NLLB-200 answers 400 "not
 * supported"; these opus-mt pair models answer 404.
 */
export const HF_REFERENCE_UNDEPLOYED = {
  notSupported: ["facebook/nllb-200-distilled-600M"],
  notDeployed: [
    "Helsinki-NLP/opus-mt-en-ha",
    "Helsinki-NLP/opus-mt-ha-en",
    "Helsinki-NLP/opus-mt-en-ig",
    "Helsinki-NLP/opus-mt-ig-en",
    "Helsinki-NLP/opus-mt-en-yo",
    "Helsinki-NLP/opus-mt-en-rw",
    "Helsinki-NLP/opus-mt-rw-en",
    "Helsinki-NLP/opus-mt-en-am",
    "Helsinki-NLP/opus-mt-en-zu",
    "Helsinki-NLP/opus-mt-zu-en",
    "Helsinki-NLP/opus-mt-sw-en",
  ],
} as const;

/** A deployment: everything deployed ("all", the default), or the reference profile above, plus explicit lists. */
export function hfDeployment(opts: Pick<EmulatorOptions, "hfProfile" | "hfNotDeployed" | "hfNotSupported"> = {}): HfDeployment {
  const reference = opts.hfProfile === "reference";
  return {
    notDeployed: new Set([...(reference ? HF_REFERENCE_UNDEPLOYED.notDeployed : []), ...(opts.hfNotDeployed ?? [])]),
    notSupported: new Set([...(reference ? HF_REFERENCE_UNDEPLOYED.notSupported : []), ...(opts.hfNotSupported ?? [])]),
  };
}

/** Emulates router.huggingface.co/hf-inference, and the Hub's model information (huggingface.co/api/models). */
export function hfBehaviour(opts: EmulatorOptions): ProviderBehaviour {
  const deployment = opts.hfDeployment ?? hfDeployment(opts);
  let requestCounter = 0;

  /**
   * GET /api/models/{id}?expand[]=inferenceProviderMapping: the Hub knows every well-formed id of a task the emulator
   * serves except the absent (404) ones; hf-inference is mapped ("live") unless the model is declared not supported.
   */
  const modelInfo = (url: URL): Response => {
    const model = decodeURIComponent(url.pathname.slice(HUB_PREFIX.length));
    const task = taskOf(model);
    if (!/^[\w.-]+\/[\w.-]+$/.test(model) || !task || deployment.notDeployed.has(model)) return json(404, { error: "Repository not found" });
    const mapping = deployment.notSupported.has(model) ? {} : { "hf-inference": { status: "live", providerId: model, task: HUB_TASKS[task] } };
    return json(200, { _id: hex(hash32(model), 24), id: model, inferenceProviderMapping: mapping });
  };

  const authFailure = (req: Request): Response | undefined => {
    if (opts.credential === undefined) return undefined;
    if (req.headers.get("authorization") !== `Bearer ${opts.credential}`) return hfError(401, "Invalid credentials in Authorization header");
    return undefined;
  };

  const translate = async (req: Request, model: string): Promise<Response> => {
    const body = await readJson(req);
    if (!isRecord(body) || typeof body.inputs !== "string" || !body.inputs) return hfError(400, "Input should be a valid string: inputs");
    const params = isRecord(body.parameters) ? body.parameters : {};
    let input = body.inputs;
    let direction: string;
    if (/nllb|m2m100|mbart/i.test(model)) {
      const flores = /^[a-z]{3}_[A-Z][a-z]{3}$/;
      const { src_lang: src, tgt_lang: tgt } = params;
      if (typeof src !== "string" || typeof tgt !== "string") return hfError(400, "src_lang and tgt_lang are required for this model");
      if (/nllb/i.test(model) && (!flores.test(src) || !flores.test(tgt)))
        return hfError(400, `Unknown language code: ${flores.test(src) ? tgt : src}`);
      direction = `${src}→${tgt}`;
    } else {
      const [, src = "?", tgt = "?"] = /opus-mt-(?:tc-big-)?([^-]+)-([^-]+)/i.exec(model) ?? [];
      // Multi-target Marian models take the target as a >>xxx<< token; without it the real model picks any language.
      const token = /^>>([a-z_]+)<<\s*/i.exec(input);
      const multiTarget = tgt === "mul" || /^[A-Z]+$/.test(tgt);
      if (token) input = input.slice(token[0].length);
      direction = `${src}→${multiTarget ? (token?.[1] ?? "?") : tgt}`;
    }
    return json(200, [{ translation_text: sandboxTranslation(opts, "hf", `${model} ${direction}`, input) }]);
  };

  /**
   * Raw audio bytes (what both official clients send) or {"inputs": base64, "parameters"?}. As Whisper on hf-inference:
   * more than 30 s of audio (3,000 mel frames) without `parameters.return_timestamps` — always so for raw bytes — is
   * refused with the pipeline's 400; with return_timestamps the answer carries `chunks` of at most 30 s each.
   */
  const transcribe = async (req: Request, model: string): Promise<Response> => {
    const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    let bytes: Uint8Array;
    let timestamps = false;
    if (type === "application/json") {
      const body = await readJson(req);
      if (!isRecord(body) || typeof body.inputs !== "string") return hfError(400, "inputs must be base64-encoded audio");
      bytes = Uint8Array.from(Buffer.from(body.inputs, "base64"));
      timestamps = isRecord(body.parameters) && body.parameters.return_timestamps === true;
    } else {
      bytes = new Uint8Array(await req.arrayBuffer());
    }
    if (bytes.byteLength === 0) return hfError(400, "Malformed soundfile: empty audio");
    if (type.includes("wav") && !parseWav(bytes)) return hfError(400, "Malformed soundfile");
    const seconds = (await measuredSeconds(bytes)) ?? bytes.byteLength / 16_000;
    if (seconds > WHISPER_MAX_SECONDS && !timestamps) return hfError(400, LONG_FORM_MESSAGE);
    const text = (from: number, to: number) =>
      sandboxMark("hf", model, `transcript of ${(to - from).toFixed(2)} s of audio #${hex(hash32(bytes), 8)}`);
    if (!timestamps) return json(200, { text: text(0, seconds) });
    const chunks: { timestamp: [number, number]; text: string }[] = [];
    for (let from = 0; from < seconds; from += WHISPER_MAX_SECONDS) {
      const to = Math.min(seconds, from + WHISPER_MAX_SECONDS);
      chunks.push({ timestamp: [Number(from.toFixed(2)), Number(to.toFixed(2))], text: text(from, to) });
    }
    return json(200, { text: chunks.map((c) => c.text).join(" "), chunks });
  };

  /** MMS-TTS is VITS at 16 kHz. The real default is FLAC; the sandbox always answers WAV and labels it so. */
  const synthesize = async (req: Request, model: string): Promise<Response> => {
    const body = await readJson(req);
    if (!isRecord(body) || typeof body.inputs !== "string" || !body.inputs.trim()) return hfError(400, "Input should be a valid string: inputs");
    const audio = makeWav({ durationSeconds: speechDurationSeconds(body.inputs), seed: hash32(`${model}|${body.inputs}`) });
    return binary(200, audio, "audio/wav");
  };

  const handlers: Record<Task, (req: Request, model: string) => Promise<Response>> = { translation: translate, asr: transcribe, tts: synthesize };

  return {
    // Inference is what the credits pay for; the Hub's model information is free.
    charged(req, url) {
      return req.method === "POST" && url.pathname.startsWith(MODELS_PREFIX);
    },

    async route(req, url) {
      if (req.method === "GET" && url.pathname.startsWith(HUB_PREFIX)) return modelInfo(url);
      if (url.pathname.startsWith("/models/"))
        return text(410, "https://api-inference.huggingface.co is no longer supported. Please use https://router.huggingface.co instead.");
      if (req.method !== "POST" || !url.pathname.startsWith(MODELS_PREFIX)) return hfError(404, "Not Found");
      const model = decodeURIComponent(url.pathname.slice(MODELS_PREFIX.length));
      const failure = authFailure(req);
      if (failure) return failure;
      const task = taskOf(model);
      if (!/^[\w.-]+\/[\w.-]+$/.test(model) || deployment.notDeployed.has(model) || !task) return hfError(404, "Not Found");
      if (deployment.notSupported.has(model)) return hfError(400, `Model ${model} is not supported by provider hf-inference`);
      return handlers[task](req, model);
    },

    errorResponse(status, variant, url) {
      return hfError(status, defaultMessage(status, modelOf(url)), variant);
    },

    loadingResponse(controls: EmulatorControls, url) {
      return json(503, { error: `Model ${modelOf(url)} is currently loading`, estimated_time: controls.estimatedTimeSeconds ?? 20.0 });
    },

    rateLimitedResponse(controls: EmulatorControls) {
      const headers: Record<string, string> = controls.retryAfterSeconds !== undefined ? { "retry-after": String(controls.retryAfterSeconds) } : {};
      return json(429, { error: "Rate limit reached. You reached free usage limit (reset hourly). Please subscribe to a plan." }, headers);
    },

    successSample(url) {
      return { contentType: "application/json", body: JSON.stringify([{ translation_text: sandboxMark("hf", modelOf(url), "Hello") }]) };
    },

    translationText(url, body) {
      return taskOf(modelOf(url)) === "translation" && isRecord(body) && typeof body.inputs === "string" ? body.inputs : undefined;
    },

    commonHeaders() {
      requestCounter += 1;
      return { "x-request-id": `Root=1-${hex(requestCounter, 8)}-${hex(requestCounter + 1, 24)}` };
    },
  };
}

const HUB_TASKS: Record<Task, string> = { translation: "translation", asr: "automatic-speech-recognition", tts: "text-to-speech" };

function taskOf(model: string): Task | undefined {
  if (/opus-mt|nllb|m2m100|mbart|madlad|t5-/i.test(model)) return "translation";
  if (/whisper|wav2vec2|mms-1b|canary|parakeet/i.test(model)) return "asr";
  if (/mms-tts|vits|speecht5_tts|bark|kokoro/i.test(model)) return "tts";
  return undefined;
}

function modelOf(url: URL): string {
  return url.pathname.startsWith(MODELS_PREFIX) ? decodeURIComponent(url.pathname.slice(MODELS_PREFIX.length)) : "unknown";
}

function defaultMessage(status: number, model: string): string {
  switch (status) {
    case 400:
      return `Model ${model} is not supported by provider hf-inference`;
    case 401:
      return "Invalid credentials in Authorization header";
    case 402:
      return "You have exceeded your monthly included credits for Inference Providers. Subscribe to PRO to get 20x more monthly included credits.";
    case 403:
      return "This authentication method does not have sufficient permissions to call Inference Providers on behalf of user sandbox";
    case 404:
      return "Not Found";
    case 422:
      return "Input validation error: inputs must be a non-empty string";
    case 503:
      return "Service Unavailable";
    default:
      return status >= 500 ? "Internal Server Error" : "Bad Request";
  }
}

/** HF error bodies: {"error": "..."}; `variant` "array" → {"error": ["..."]}, "errors" → {"errors":[{message}]}, "header" → X-Error-Message only. */
function hfError(status: number, message: string, variant?: string): Response {
  switch (variant) {
    case "array":
      return json(status, { error: [message] });
    case "errors":
      return json(status, { errors: [{ message }] });
    case "header":
      return text(status, "", "text/plain", { "x-error-message": message, "x-error-code": status === 404 ? "model_not_found" : "error" });
    default:
      return json(status, { error: message });
  }
}
