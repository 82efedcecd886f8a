import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "../generated/schema.js";
import { errorFromResponse, LughaConnectionError, LughaError } from "./errors.js";
import { retryAfterSeconds, retryingFetch, type TransportOptions } from "./retry.js";

/** The API's request and response bodies by name, e.g. `Schemas["TranslateResponse"]`. */
export type Schemas = components["schemas"];
/** The typed openapi-fetch client: `GET`/`POST`/`DELETE` on any path of the API, answers as `{ data, error, response }`. */
export type LughaClient = Client<paths>;

export type Provider = NonNullable<Schemas["TranslateRequest"]["provider"]>;
export type TranslateRequest = Schemas["TranslateRequest"];
export type TranslateResponse = Schemas["TranslateResponse"];
export type BatchTranslateRequest = Schemas["BatchTranslateRequest"];
export type BatchTranslateResponse = Schemas["BatchTranslateResponse"];
export type DetectResponse = Schemas["DetectResponse"];
export type CatalogRequest = Schemas["CatalogRequest"];
export type CatalogResponse = Schemas["CatalogResponse"];
export type CatalogFormat = CatalogRequest["format"];
export type LanguagesQuery = NonNullable<operations["listLanguages"]["parameters"]["query"]>;
export type LanguagesResponse = Schemas["LanguagesResponse"];
export type SttResponse = Schemas["SttResponse"];
export type TtsRequest = Schemas["TtsRequest"];
export type TtsResponse = Schemas["TtsResponse"];
export type UsageQuery = NonNullable<operations["getUsage"]["parameters"]["query"]>;
export type UsageResponse = Schemas["UsageResponse"];
export type RequestLogQuery = NonNullable<operations["listRequests"]["parameters"]["query"]>;
export type RequestLogResponse = Schemas["RequestLogResponse"];
export type KeyDetails = Schemas["KeyDetails"];
export type IssueKeyRequest = Schemas["IssueKeyRequest"];
export type IssuedKey = Schemas["IssuedKey"];
export type RevokedKey = Schemas["RevokedKey"];
export type CreateGlossaryRequest = Schemas["CreateGlossaryRequest"];
export type Glossary = Schemas["Glossary"];
export type GlossaryList = Schemas["GlossaryList"];
export type DeletedGlossary = Schemas["DeletedGlossary"];
export type HealthResponse = Schemas["HealthResponse"];

/** Audio to upload: a Blob (or File), or the bytes themselves (a Uint8Array, a Node.js Buffer, an ArrayBuffer). */
export type AudioInput = Blob | Uint8Array | ArrayBuffer;

/** Speech to text of a recording you send: uploaded as multipart/form-data. */
export interface TranscribeUpload {
  audio: AudioInput;
  /** Name sent with the file (default `audio`); the server recognises the format from the bytes, not the name. */
  filename?: string;
  language: string;
  provider?: Provider;
}

/** Speech to text of a recording the server fetches itself: sent as JSON `{"audio_url", "language"}`. */
export interface TranscribeUrl {
  audioUrl: string;
  language: string;
  provider?: Provider;
}

export type TranscribeRequest = TranscribeUpload | TranscribeUrl;

/** The TTS answer with the audio already decoded from `audio_base64`. */
export type SpeakResult = TtsResponse & { audio: Uint8Array };

export interface LughaOptions extends TransportOptions {
  /** An API key (`svc_…`), sent as `Authorization: Bearer`. Only `createKey` and `health` work without one. */
  apiKey?: string;
  /** Base URL of the service (default `http://localhost:3000`), without a trailing path. */
  baseUrl?: string;
}

export interface LughaClientOptions extends TransportOptions {
  /** Base URL of the service, e.g. `https://lugha.example.com` (no trailing path). */
  baseUrl: string;
  /** An API key (`svc_…`), sent as `Authorization: Bearer`. Omit it for the unauthenticated routes only. */
  apiKey?: string;
}

export const DEFAULT_BASE_URL = "http://localhost:3000";

/**
 * A client for every operation of the API, typed from its OpenAPI document, answering `{ data, error, response }`:
 *
 *   const lugha = createLughaClient({ baseUrl, apiKey });
 *   const { data, error } = await lugha.POST("/api/v1/translate", { body: { text: "Good morning", target_lang: "lug" } });
 *
 * `error` is the API's error envelope (`error.detail.code`, `error.detail.message`). Retries as in {@link retryingFetch}.
 * For methods that return the result and throw {@link LughaError}, use {@link Lugha}.
 */
export function createLughaClient(options: LughaClientOptions): LughaClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
    fetch: retryingFetch(options),
  });
}

/**
 * The Lugha API, one method per operation: each returns the response body and throws a {@link LughaError} for any
 * error answer (after the retries of a 429 or 503), or a {@link LughaConnectionError} when the server cannot be reached.
 *
 *   const lugha = new Lugha({ apiKey: process.env.LUGHA_API_KEY, baseUrl: "https://lugha.example.com" });
 *   const { translated_text } = await lugha.translate({ text: "Good morning", target_lang: "lug" });
 */
export class Lugha {
  readonly baseUrl: string;
  /** The same API as a typed openapi-fetch client (same key, same retries), for anything the methods do not cover. */
  readonly raw: LughaClient;
  readonly #apiKey: string | undefined;
  readonly #fetch: (request: Request) => Promise<Response>;

  constructor(options: LughaOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.#fetch = retryingFetch(options);
    this.raw = createLughaClient({ ...options, baseUrl: this.baseUrl });
  }

  /** `POST /api/v1/translate`. `noCache: true` asks the providers again instead of answering from the cache. */
  translate(request: TranslateRequest, options: { noCache?: boolean } = {}): Promise<TranslateResponse> {
    return this.#json("POST", "/api/v1/translate", { body: request, headers: options.noCache ? { "cache-control": "no-cache" } : {} });
  }

  /** `POST /api/v1/translate/batch`: up to 50 items; each succeeds or fails on its own (check `failed`). */
  translateBatch(request: BatchTranslateRequest, options: { noCache?: boolean } = {}): Promise<BatchTranslateResponse> {
    return this.#json("POST", "/api/v1/translate/batch", { body: request, headers: options.noCache ? { "cache-control": "no-cache" } : {} });
  }

  /**
   * `POST /api/v1/translate/catalog`: a whole catalog file (JSON, PO, XLIFF, Android, .strings, ARB, YAML, SRT, VTT,
   * Markdown) into one language. Check `entries.pending` (call again with `existing: content` and `source_hashes`)
   * and `entries.failed`.
   */
  translateCatalog(request: CatalogRequest, options: { noCache?: boolean } = {}): Promise<CatalogResponse> {
    return this.#json("POST", "/api/v1/translate/catalog", { body: request, headers: options.noCache ? { "cache-control": "no-cache" } : {} });
  }

  /** `POST /api/v1/detect`: one text (one result) or up to 50 (one result each, in order). */
  detect(text: string | string[]): Promise<DetectResponse> {
    return this.#json("POST", "/api/v1/detect", { body: typeof text === "string" ? { text } : { texts: text } });
  }

  /** `GET /api/v1/languages`: every language, who translates, transcribes and speaks it; filtered by the query. */
  languages(query: LanguagesQuery = {}): Promise<LanguagesResponse> {
    return this.#json("GET", "/api/v1/languages", { query });
  }

  /**
   * `POST /api/v1/speech/stt`. With `audio` the recording is uploaded (the multipart form is built here); with
   * `audioUrl` the server fetches the recording from that URL.
   */
  transcribe(request: TranscribeRequest): Promise<SttResponse> {
    if ("audioUrl" in request) {
      const { audioUrl, language, provider } = request;
      return this.#json("POST", "/api/v1/speech/stt", { body: { audio_url: audioUrl, language, ...(provider ? { provider } : {}) } });
    }
    const form = new FormData();
    form.set("audio", toBlob(request.audio), request.filename ?? "audio");
    form.set("language", request.language);
    if (request.provider) form.set("provider", request.provider);
    return this.#json("POST", "/api/v1/speech/stt", { form });
  }

  /** `POST /api/v1/speech/tts`: the answer, with the audio decoded into `audio` (a WAV file's bytes). */
  async speak(request: TtsRequest): Promise<SpeakResult> {
    const result = await this.#json<TtsResponse>("POST", "/api/v1/speech/tts", { body: request });
    return { ...result, audio: fromBase64(result.audio_base64) };
  }

  /** `GET /api/v1/usage`: the key's requests, characters, cache hits and errors, per day or grouped otherwise. */
  usage(query: UsageQuery = {}): Promise<UsageResponse> {
    return this.#json("GET", "/api/v1/usage", { query });
  }

  /** `GET /api/v1/usage/requests`: the key's requests of the last 7 days, newest first (filters and paging in `query`). */
  requests(query: RequestLogQuery = {}): Promise<RequestLogResponse> {
    return this.#json("GET", "/api/v1/usage/requests", { query });
  }

  /** `GET /api/v1/auth/keys/me`: the key's name, expiry, request count and rate limits. */
  keyInfo(): Promise<KeyDetails> {
    return this.#json("GET", "/api/v1/auth/keys/me", {});
  }

  /** `DELETE /api/v1/auth/keys/me`: revokes the key this client uses. */
  revokeKey(): Promise<RevokedKey> {
    return this.#json("DELETE", "/api/v1/auth/keys/me", {});
  }

  /** `POST /api/v1/auth/keys`: a new key (no key needed). The key is in `api_key`, shown this once. */
  createKey(request: IssueKeyRequest): Promise<IssuedKey> {
    return this.#json("POST", "/api/v1/auth/keys", { body: request, anonymous: true });
  }

  /** `GET /api/v1/glossaries`, `POST /api/v1/glossaries`, `GET`/`DELETE /api/v1/glossaries/{id}`. */
  readonly glossaries = {
    list: (): Promise<GlossaryList> => this.#json("GET", "/api/v1/glossaries", {}),
    create: (request: CreateGlossaryRequest): Promise<Glossary> => this.#json("POST", "/api/v1/glossaries", { body: request }),
    get: (id: string): Promise<Glossary> => this.#json("GET", `/api/v1/glossaries/${encodeURIComponent(id)}`, {}),
    delete: (id: string): Promise<DeletedGlossary> => this.#json("DELETE", `/api/v1/glossaries/${encodeURIComponent(id)}`, {}),
  };

  /** `GET /health` (no key needed). A 503 "down" answer throws like any error. */
  health(): Promise<HealthResponse> {
    return this.#json("GET", "/health", { anonymous: true });
  }

  async #json<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    init: { body?: unknown; form?: FormData; query?: Record<string, unknown>; headers?: Record<string, string>; anonymous?: boolean },
  ): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(init.query ?? {}))
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    const headers = new Headers({ accept: "application/json", ...init.headers });
    if (this.#apiKey && !init.anonymous) headers.set("authorization", `Bearer ${this.#apiKey}`);
    let body: FormData | string | undefined = init.form;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers.set("content-type", "application/json");
    }
    let response: Response;
    try {
      response = await this.#fetch(new Request(url, { method, headers, body }));
    } catch (err) {
      const timeout = (err as Error)?.name === "TimeoutError";
      throw new LughaConnectionError({
        status: 0,
        code: timeout ? "TIMEOUT" : "CONNECTION_ERROR",
        message: timeout ? `${this.baseUrl} did not answer in time` : `could not reach ${this.baseUrl}: ${describeCause(err)}`,
        cause: err,
      });
    }
    if (!response.ok) throw await errorFromResponse(response, retryAfterSeconds(response.headers.get("retry-after")));
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new LughaError({
        status: response.status,
        code: "INVALID_RESPONSE",
        message: `${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
        requestId: response.headers.get("x-request-id"),
        body: text,
        cause: err,
      });
    }
  }
}

function toBlob(audio: AudioInput): Blob {
  if (audio instanceof Blob) return audio;
  // A copy: a Uint8Array (or Buffer) may be a view on a larger or shared buffer.
  return new Blob([audio instanceof ArrayBuffer ? new Uint8Array(audio.slice(0)) : new Uint8Array(audio)]);
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, …). */
function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
}
