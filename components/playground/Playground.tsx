"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { formatBytes } from "@/lib/kit/bytes";
import { cacheOutcome, callApi } from "@/lib/portal/api";
import { KEY_PATTERN } from "@/lib/portal/key-storage";
import { htmlLang } from "@/lib/portal/lang";
import { qualityLabel } from "@/lib/portal/quality";
import type { SnippetRequest } from "@/lib/portal/snippets";
import { TTS_FORMATS, TTS_MEDIA_TYPES, type TtsFormat, ttsFormatOf } from "@/lib/speech/formats";
import { CodeBlock } from "../CodeBlock";
import { ScrollRegion } from "../ScrollRegion";
import { CatalogSection } from "./CatalogSection";
import { TextField } from "./CharCounter";
import { type LanguageChoice, LanguageFields, LanguageSelect, type PlaygroundLanguage } from "./LanguageFields";
import { DoNotTranslateInput, FormatSelect, GlossarySelect, parseTerms, type TextFormatValue } from "./LocalisationControls";
import { usePlayground } from "./PlaygroundContext";
import { ProblemBox } from "./ProblemBox";
import { ResponseMeta } from "./ResponseMeta";
import { ResultActions } from "./ResultActions";
import { DetectSection, type TranscribeLimits, TranscribeSection } from "./SpeechAndDetect";
import { type Tab, Tabs } from "./Tabs";
import { useApiCall } from "./useApiCall";
import { ViewCode } from "./ViewCode";

/**
 * The playground is a plain client of the public API: it calls /api/v1/translate, /translate/batch and /speech/tts from
 * this browser with the user's key (Authorization: Bearer), exactly as their own code would. Requests are counted and
 * rate-limited like any other; the portal's session cookie plays no part in them.
 */
/** A language text-to-speech speaks, with its voices (provider and name), from the languages listing. */
export interface TtsLanguage {
  code: string;
  name: string;
  voices: { id: string; label: string }[];
}

/** The API's input limits, from the manifest's schemas (the dashboard passes them): each text field counts against its own. */
export interface PlaygroundLimits {
  /** POST /translate's text, each batch item's, POST /detect's. */
  textChars: number;
  batchItems: number;
  /** POST /speech/tts's text. */
  ttsChars: number;
  /** POST /speech/stt's upload and recording length on this server (SPEECH_MAX_UPLOAD_BYTES, SPEECH_MAX_AUDIO_SECONDS). */
  stt: TranscribeLimits;
}

export function Playground({
  languages,
  sttLanguages,
  ttsLanguages,
  limits,
}: {
  languages: PlaygroundLanguage[];
  sttLanguages: { code: string; name: string }[];
  ttsLanguages: TtsLanguage[];
  limits: PlaygroundLimits;
}) {
  const { apiKey, ready } = usePlayground();
  if (!ready) return <p className="text-slate-700">Loading the playground…</p>;
  if (!apiKey) return <KeyGate />;
  const names = new Map(languages.map((l) => [l.code, l.name]));
  const tabs: Tab[] = [
    {
      id: "translate",
      label: "Translate",
      panel: <TranslateSection languages={languages} speaks={new Set(ttsLanguages.map((l) => l.code))} maxChars={limits.textChars} />,
    },
    { id: "batch", label: "Batch", panel: <BatchSection languages={languages} maxChars={limits.textChars} maxItems={limits.batchItems} /> },
    { id: "detect", label: "Detect", panel: <DetectSection names={names} maxChars={limits.textChars} /> },
    { id: "speak", label: "Speak", panel: <SpeakSection languages={ttsLanguages} maxChars={limits.ttsChars} /> },
    { id: "transcribe", label: "Transcribe", panel: <TranscribeSection languages={sttLanguages} limits={limits.stt} /> },
    { id: "catalog", label: "Catalog", panel: <CatalogSection languages={languages} /> },
  ];
  return (
    <div className="space-y-6">
      <KeyBar />
      <Tabs label="Playground" tabs={tabs} />
    </div>
  );
}

function KeyGate() {
  const { setApiKey, expectedPrefix } = usePlayground();
  const id = useId();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);

  function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const key = value.trim();
    if (!KEY_PATTERN.test(key)) return setError("A key is svc_ followed by 40 lowercase hexadecimal characters.");
    if (!key.startsWith(expectedPrefix)) return setError(`This is not the key you signed in with (${expectedPrefix}…).`);
    setError(null);
    setApiKey(key);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Unlock the playground">
      <p className="text-slate-800">
        The playground calls the API from this browser with your key. Your session does not hold the key (only its id), so paste it here once; it is
        kept in this tab only and forgotten when you sign out or close the tab.
      </p>
      <label htmlFor={`${id}-key`} className="field-label">
        API key ({expectedPrefix}…)
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          className="field-input mt-0 font-mono"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="submit" className="btn-primary">
          Use this key
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="field-error">
          {error}
        </p>
      )}
    </form>
  );
}

function KeyBar() {
  const { apiKey, setApiKey } = usePlayground();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-slate-100 px-4 py-3 text-sm">
      <p>
        Calling the API as <code className="font-mono">{apiKey!.slice(0, 12)}…</code> — the key is kept in this browser tab only.
      </p>
      <button type="button" className="btn-secondary px-3 py-1" onClick={() => setApiKey(null)}>
        Forget key
      </button>
    </div>
  );
}

type TranslateResult = Record<string, unknown> & {
  translated_text: string;
  target_lang: string;
  detected_source_lang: string;
  quality_score: number;
  latency_ms: number;
  provider: string;
};

function TranslateSection({ languages, speaks, maxChars }: { languages: PlaygroundLanguage[]; speaks: Set<string>; maxChars: number }) {
  const id = useId();
  const names = new Map(languages.map((l) => [l.code, l.name]));
  const [text, setText] = useState("Good morning, how are you?");
  const [choice, setChoice] = useState<LanguageChoice>({ source: "en", target: "lug", provider: "auto" });
  const [format, setFormat] = useState<TextFormatValue>("text");
  const [keep, setKeep] = useState("");
  const [glossaryId, setGlossaryId] = useState("");
  const { busy, result, problem, submit, request } = useApiCall("translate", "/api/v1/translate", (data: TranslateResult, headers) => ({
    data,
    requestId: headers.get("x-request-id"),
    cache: cacheOutcome(headers),
  }));

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const body: Record<string, unknown> = { text, target_lang: choice.target };
    if (choice.source) body.source_lang = choice.source;
    if (choice.provider !== "auto") body.provider = choice.provider;
    if (format !== "text") body.format = format;
    const doNotTranslate = parseTerms(keep);
    if (doNotTranslate.length > 0) body.do_not_translate = doNotTranslate;
    if (glossaryId) body.glossary_id = glossaryId;
    await submit(body);
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
        Translate
      </h3>
      <form onSubmit={onSubmit} className="mt-3 space-y-4" aria-label="Translate a text">
        <TextField id={id} text={text} onChange={setText} limit={maxChars} />
        <LanguageFields idPrefix={`${id}-lang`} languages={languages} value={choice} onChange={setChoice} />
        <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">Localisation (optional)</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormatSelect id={`${id}-format`} value={format} onChange={setFormat} />
            <GlossarySelect id={`${id}-glossary`} source={choice.source} target={choice.target} value={glossaryId} onChange={setGlossaryId} />
          </div>
          <DoNotTranslateInput id={`${id}-keep`} value={keep} onChange={setKeep} />
        </fieldset>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Translating…" : "Translate"}
        </button>
      </form>

      <div aria-live="polite" className="mt-5 space-y-4">
        {problem && <ProblemBox problem={problem} what="Translation" />}
        {result && (
          <TranslationResult
            data={result.data}
            requestId={result.requestId}
            cache={result.cache}
            names={names}
            speakable={speaks.has(result.data.target_lang)}
          />
        )}
        {result && request && <ResultActions result={result.data} path="/api/v1/translate" request={request} />}
      </div>
    </section>
  );
}

/** Plain-language labels for the response fields; the API's field name is shown beside each. */
const FIELD_LABELS: Record<string, string> = {
  translated_text: "Translation",
  detected_source_lang: "Source language (detected or as sent)",
  target_lang: "Target language (as sent)",
  model_used: "Model (provider/model)",
  provider: "Served by",
  quality_score: "Estimated quality",
  latency_ms: "Time taken (ms)",
  characters_translated: "Characters translated",
  detected_source_confidence: "Detection confidence (empty when you named the source)",
  requested_provider: "Provider asked for",
  fallback_used: "An earlier provider failed and a later one served",
  providers_tried: "Providers called, in order",
  sandbox: "Offline emulator (not a real translation)",
  cached: "Answered from the cache (no provider called for this request)",
  segments: "Upstream calls",
  glossary_terms_applied: "Glossary terms used in the translation",
};

/** "Sunbird AI (provider_a)": the human name beside the API's id. */
export function providerLabel(id: string, providerNames: Record<string, string>): string {
  return providerNames[id] ? `${providerNames[id]} (${id})` : id;
}

function formatValue(field: string, value: unknown, names: Map<string, string>, providerNames: Record<string, string>): React.ReactNode {
  if ((field === "provider" || field === "requested_provider") && typeof value === "string")
    return <span>{providerLabel(value, providerNames)}</span>;
  if (field === "providers_tried" && Array.isArray(value))
    return <span>{value.map((p) => providerLabel(String(p), providerNames)).join(" → ") || "—"}</span>;
  if (field === "quality_score" && typeof value === "number") {
    const q = qualityLabel(value);
    return (
      <span>
        <strong className="tabular-nums">{value.toFixed(2)}</strong> — <span data-testid="quality-band">{q.band}</span>: {q.meaning}
      </span>
    );
  }
  if (field === "latency_ms" && typeof value === "number") return <span className="tabular-nums">{value.toLocaleString("en-US")} ms</span>;
  if ((field === "detected_source_lang" || field === "target_lang") && typeof value === "string")
    return (
      <span>
        <code className="font-mono">{value}</code>
        {names.get(value) ? ` (${names.get(value)})` : ""}
      </span>
    );
  if (field === "glossary_terms_applied" && Array.isArray(value))
    return <span>{value.length > 0 ? value.join(", ") : "none: the text held no term of the glossary"}</span>;
  if (field === "detected_source_confidence" && typeof value === "number") return <span className="tabular-nums">{(value * 100).toFixed(0)}%</span>;
  if (Array.isArray(value)) return <code className="font-mono">{value.join(" → ") || "—"}</code>;
  if (value === null) return <span className="text-slate-600">null</span>;
  if (typeof value === "boolean") return <code className="font-mono">{String(value)}</code>;
  if (typeof value === "object") return <code className="font-mono">{JSON.stringify(value)}</code>;
  return <code className="break-words font-mono">{String(value)}</code>;
}

function TranslationResult({
  data,
  requestId,
  cache,
  names,
  speakable,
}: {
  data: TranslateResult;
  requestId: string | null;
  /** X-Lugha-Cache in words (cacheOutcome). */
  cache: string;
  names: Map<string, string>;
  /** Text-to-speech speaks the target language: offer "Speak". */
  speakable: boolean;
}) {
  const { providerNames } = usePlayground();
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="translate-result">
      <p className="text-sm font-semibold text-slate-700">
        {FIELD_LABELS.translated_text} <code className="ml-1 font-mono text-xs font-normal text-slate-600">translated_text</code>
      </p>
      <p lang={htmlLang(data.target_lang)} className="mt-1 text-xl text-slate-950" data-testid="translated-text">
        {data.translated_text}
      </p>
      {data.sandbox === true && (
        <p className="mt-2 inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">
          Sandbox output — not a real translation
        </p>
      )}
      {speakable && <Speak text={data.translated_text} language={data.target_lang} />}
      <div className="mt-4">
        <ResponseMeta
          items={[
            // Provider and model are among the fields below, each once.
            ["Cache", cache],
            ["Request id", requestId],
          ]}
        />
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {Object.entries(data)
          // glossary_terms_applied is null without a glossary: nothing to say then.
          .filter(([k, v]) => k !== "translated_text" && !(k === "glossary_terms_applied" && v === null))
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-800">
                {FIELD_LABELS[k] ?? k} <code className="ml-1 font-mono text-xs text-slate-600">{k}</code>
              </dt>
              <dd className="text-slate-900" data-field={k}>
                {formatValue(k, v, names, providerNames)}
              </dd>
            </div>
          ))}
      </dl>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer text-brand-800 underline underline-offset-2">Raw response</summary>
        <CodeBlock code={JSON.stringify(data, null, 2)} label="Response body (JSON)" className="mt-2" />
        {requestId && <p className="mt-1 font-mono text-xs text-slate-700">X-Request-Id: {requestId}</p>}
      </details>
    </div>
  );
}

/** What the last text-to-speech call said about itself (JSON fields, or the X-Lugha-* headers of raw audio). */
interface SpokenMeta {
  provider: string | null;
  model: string | null;
  voice: string | null;
  duration: string | null;
  requestId: string | null;
}

/** One answer of text-to-speech: the audio file as received, under an object URL the page owns (revoked when replaced). */
interface SpokenAudio {
  url: string;
  /** The answer's media type: the Content-Type of raw audio, or the JSON answer's content_type. */
  contentType: string;
  bytes: number;
  /** Its file name when downloaded: speech-<language>.<the format's extension>. */
  fileName: string;
}

/** How the Speak tab names each format. */
const FORMAT_LABELS: Record<TtsFormat, string> = { wav: "WAV", mp3: "MP3", opus: "Ogg/Opus (voice note)" };

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Text-to-speech: POST /api/v1/speech/tts, played from the bytes and offered as a download. `raw` (default) sends
 * Accept with the format's media type and gets the audio itself, its details in X-Lugha-* headers; otherwise the
 * answer is JSON with the audio as base64, the format named by the body's `format`. With `details` (the Speak tab),
 * what served it and "View code" are shown under the player.
 */
function Speak({
  text,
  language,
  voice,
  raw = true,
  format = "wav",
  details = false,
}: {
  text: string;
  language: string;
  voice?: string;
  raw?: boolean;
  format?: TtsFormat;
  details?: boolean;
}) {
  const { apiKey, recordRateLimit, providerNames } = usePlayground();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [audio, setAudio] = useState<SpokenAudio | null>(null);
  const [meta, setMeta] = useState<SpokenMeta | null>(null);
  const [sent, setSent] = useState<SnippetRequest | null>(null);
  const [message, setMessage] = useState<{ kind: "error" | "info"; text: string } | null>(null);
  const audioRef = useRef<HTMLAudioElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect's job is to forget the last audio whenever the request changes
  useEffect(() => {
    setAudio(null);
    setMeta(null);
    setMessage(null);
  }, [text, language, voice, raw, format]);
  useEffect(() => {
    if (!audio) return;
    audioRef.current?.play().catch(() => setMessage({ kind: "info", text: "Press play to listen." }));
    return () => URL.revokeObjectURL(audio.url);
  }, [audio]);

  async function speak() {
    setBusy(true);
    setMessage(null);
    const { contentType } = TTS_MEDIA_TYPES[format];
    // Raw audio names its format in Accept; JSON in the body (WAV, the default, needs neither).
    const body = { text, language, ...(voice ? { voice } : {}), ...(!raw && format !== "wav" ? { format } : {}) };
    setSent({ kind: "speak", body, raw, format });
    const r = await callApi<{ blob: Blob; meta: Omit<SpokenMeta, "requestId"> }>(
      "/api/v1/speech/tts",
      { method: "POST", apiKey: apiKey!, headers: { Accept: raw ? contentType : "application/json" }, body: JSON.stringify(body) },
      async (res) => {
        if (raw) {
          const h = res.headers;
          const seconds = h.get("x-lugha-audio-duration-seconds");
          return {
            blob: new Blob([await res.arrayBuffer()], { type: h.get("content-type") ?? "" }),
            meta: { provider: h.get("x-lugha-provider"), model: h.get("x-lugha-model-used"), voice: h.get("x-lugha-voice"), duration: seconds },
          };
        }
        const json = (await res.json()) as {
          audio_base64: string;
          content_type: string;
          provider: string;
          model_used: string;
          voice: string;
          audio_duration_seconds: number;
        };
        return {
          blob: new Blob([base64ToBytes(json.audio_base64)], { type: json.content_type }),
          meta: { provider: json.provider, model: json.model_used, voice: json.voice, duration: String(json.audio_duration_seconds) },
        };
      },
    );
    recordRateLimit("tts", r.rateLimit);
    setBusy(false);
    if (r.ok) {
      // The blob carries the answer's media type as the answer wrote it (Content-Type, or the JSON's content_type); the
      // file is named by it, not by what was asked for.
      const { blob } = r.data;
      const extension = TTS_MEDIA_TYPES[ttsFormatOf(blob.type) ?? format].extension;
      setAudio({ url: URL.createObjectURL(blob), contentType: blob.type, bytes: blob.size, fileName: `speech-${language}.${extension}` });
      setMeta({ ...r.data.meta, requestId: r.headers.get("x-request-id") });
    } else if (r.problem.status === 404) {
      setMessage({ kind: "info", text: "Text-to-speech is not available on this server yet." });
    } else {
      setMessage({ kind: "error", text: `Could not speak it: ${r.problem.message} (HTTP ${r.problem.status} ${r.problem.code})` });
    }
    router.refresh();
  }

  return (
    <div className="mt-3 space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className="btn-secondary" onClick={speak} disabled={busy}>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
            <path d="M3 8v4h3l4 4V4L6 8H3zm10.5 2a3.5 3.5 0 0 0-2-3.15v6.3a3.5 3.5 0 0 0 2-3.15zM11.5 3.2v2.06a5 5 0 0 1 0 9.48v2.06a7 7 0 0 0 0-13.6z" />
          </svg>
          {busy ? "Synthesising…" : "Speak"}
        </button>
        {audio && (
          // biome-ignore lint/a11y/useMediaCaption: the audio speaks the text printed just above it, which is its caption
          <audio ref={audioRef} controls src={audio.url} data-testid="tts-audio" className="w-full max-w-md" aria-label="Spoken text" />
        )}
        {audio && (
          <a
            href={audio.url}
            download={audio.fileName}
            type={audio.contentType}
            className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline underline-offset-2"
            data-testid="tts-download"
          >
            Download {audio.fileName} ({formatBytes(audio.bytes)})
          </a>
        )}
        {message && (
          <p
            role={message.kind === "error" ? "alert" : "status"}
            className={`text-sm ${message.kind === "error" ? "text-red-800" : "text-slate-800"}`}
            data-testid="tts-message"
          >
            {message.text}
          </p>
        )}
      </div>
      {details && meta && audio && (
        <div aria-live="polite" data-testid="speak-result" className="space-y-3">
          <ResponseMeta
            items={[
              ["Provider", meta.provider ? providerLabel(meta.provider, providerNames) : null],
              ["Model", meta.model],
              ["Voice", meta.voice],
              ["Duration", meta.duration ? `${Number(meta.duration).toLocaleString("en-US")} s` : null],
              ["Audio", `${audio.contentType}, ${formatBytes(audio.bytes)} (${audio.bytes.toLocaleString("en-US")} bytes)`],
              [
                "Response form",
                raw ? `raw audio (Accept: ${TTS_MEDIA_TYPES[format].contentType}; details in X-Lugha-* headers)` : "JSON, audio in audio_base64",
              ],
              ["Request id", meta.requestId],
            ]}
          />
          {sent && <ViewCode snippet={sent} />}
        </div>
      )}
    </div>
  );
}

/** The Speak tab: text-to-speech in a language that has voices, with a voice picker (default: the provider's own) and the format. */
function SpeakSection({ languages, maxChars }: { languages: TtsLanguage[]; maxChars: number }) {
  const id = useId();
  const [raw, setRaw] = useState(true);
  const [format, setFormat] = useState<TtsFormat>("wav");
  const [language, setLanguage] = useState(languages.find((l) => l.code === "lug")?.code ?? languages[0]?.code ?? "");
  const [voice, setVoice] = useState("");
  const [text, setText] = useState("Wasuze otya nno?");
  const voices = languages.find((l) => l.code === language)?.voices ?? [];
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
        Speak a text
      </h3>
      <p className="mt-1 text-sm text-slate-700">Only the {languages.length} languages text-to-speech speaks are listed.</p>
      <form className="mt-3 space-y-4" aria-label="Speak a text" onSubmit={(e) => e.preventDefault()}>
        <TextField id={id} text={text} onChange={setText} limit={maxChars} rows={2} />
        <div className="grid gap-4 sm:grid-cols-3">
          <LanguageSelect
            id={`${id}-language`}
            label="Language"
            languages={languages}
            value={language}
            onChange={(code) => {
              setLanguage(code);
              setVoice("");
            }}
          />
          <div>
            <label htmlFor={`${id}-voice`} className="field-label">
              Voice
            </label>
            <select id={`${id}-voice`} className="field-input" value={voice} onChange={(e) => setVoice(e.target.value)}>
              <option value="">Default voice</option>
              {voices.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-format`} className="field-label">
              Audio format
            </label>
            <select
              id={`${id}-format`}
              className="field-input"
              value={format}
              onChange={(e) => setFormat(e.target.value as TtsFormat)}
              aria-describedby={`${id}-format-hint`}
            >
              {TTS_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
            <p id={`${id}-format-hint`} className="mt-1 text-xs text-slate-700">
              <code className="font-mono">{TTS_MEDIA_TYPES[format].contentType}</code>
              {format === "opus" ? ": what WhatsApp and Telegram play as a voice note" : ""}
            </p>
          </div>
        </div>
        <fieldset>
          <legend className="field-label">Response form</legend>
          <div className="mt-1 flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <label className="flex min-h-11 flex-wrap items-center gap-x-2">
              <input type="radio" name={`${id}-form`} checked={raw} onChange={() => setRaw(true)} />
              Raw audio <code className="whitespace-nowrap font-mono">(Accept: {TTS_MEDIA_TYPES[format].contentType})</code>
            </label>
            <label className="flex min-h-11 flex-wrap items-center gap-x-2">
              <input type="radio" name={`${id}-form`} checked={!raw} onChange={() => setRaw(false)} />
              JSON <code className="font-mono">(audio_base64{format === "wav" ? "" : `, "format": "${format}"`})</code>
            </label>
          </div>
        </fieldset>
      </form>
      <Speak text={text} language={language} voice={voice || undefined} raw={raw} format={format} details />
    </section>
  );
}

type BatchResponse = {
  results: (Record<string, unknown> & {
    id: string;
    translated_text: string | null;
    provider: string | null;
    quality_score: number | null;
    error: string | null;
    error_code?: string | null;
  })[];
  total: number;
  succeeded: number;
  failed: number;
  total_latency_ms: number;
};

/** A long line as the results table shows it: its start, the whole of it in the title. */
const truncate = (text: string, max = 80) => ([...text].length > max ? `${[...text].slice(0, max - 1).join("")}…` : text);

function BatchSection({ languages, maxChars, maxItems }: { languages: PlaygroundLanguage[]; maxChars: number; maxItems: number }) {
  const { providerNames } = usePlayground();
  const id = useId();
  const [lines, setLines] = useState("Good morning\nThank you very much\nWhere is the market?");
  const [choice, setChoice] = useState<LanguageChoice>({ source: "en", target: "sw", provider: "auto" });
  const [format, setFormat] = useState<TextFormatValue>("text");
  const texts = lines.split(/\r?\n/).filter((l) => l.trim() !== "");
  const longest = texts.reduce((m, t) => Math.max(m, [...t.trim()].length), 0);
  const { busy, result, problem, submit, request, requestId } = useApiCall("batch", "/api/v1/translate/batch", (data: BatchResponse, headers) => ({
    data,
    texts,
    target: choice.target,
    // hit or miss: how many items the cache answered says more than the header; bypass and off say it in words.
    cache: ["hit", "miss"].includes(headers.get("x-lugha-cache") ?? "")
      ? `${data.results.filter((r) => r.cached === true).length} of ${data.succeeded} translations from the cache`
      : cacheOutcome(headers),
  }));

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const items = texts.map((text, i) => ({
      id: `line-${i + 1}`,
      text,
      target_lang: choice.target,
      ...(choice.source ? { source_lang: choice.source } : {}),
    }));
    const body = {
      items,
      ...(choice.provider !== "auto" ? { provider: choice.provider } : {}),
      // Batch-level: every item takes it (an item may name its own; the playground's items do not).
      ...(format !== "text" ? { format } : {}),
    };
    await submit(body);
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
        Batch
      </h3>
      <form onSubmit={onSubmit} className="mt-3 space-y-4" aria-label="Translate a batch">
        <div>
          <label htmlFor={`${id}-lines`} className="field-label">
            Texts, one per line
          </label>
          <textarea
            id={`${id}-lines`}
            rows={4}
            className="field-input"
            value={lines}
            onChange={(e) => setLines(e.target.value)}
            aria-describedby={`${id}-hint`}
          />
          <p
            id={`${id}-hint`}
            className={`mt-1 text-xs ${texts.length > maxItems || longest > maxChars ? "font-semibold text-red-800" : "text-slate-700"}`}
          >
            {texts.length} {texts.length === 1 ? "item" : "items"} (up to {maxItems}; empty lines are skipped) · longest line{" "}
            {longest.toLocaleString("en-US")} / {maxChars.toLocaleString("en-US")} characters
            {texts.length > maxItems ? ` — ${texts.length - maxItems} items over the limit` : ""}
            {longest > maxChars ? " — a line is over the limit: that item fails" : ""}. One batch counts as one request.
          </p>
        </div>
        <LanguageFields idPrefix={`${id}-lang`} languages={languages} value={choice} onChange={setChoice} />
        <div className="sm:w-1/3">
          <FormatSelect id={`${id}-format`} value={format} onChange={setFormat} />
        </div>
        <button type="submit" className="btn-primary" disabled={busy || texts.length === 0}>
          {busy ? "Translating…" : `Translate ${texts.length} ${texts.length === 1 ? "line" : "lines"}`}
        </button>
      </form>
      <div aria-live="polite" className="mt-5 space-y-3">
        {problem && <ProblemBox problem={problem} what="Batch" />}
        {result && (
          <div data-testid="batch-result">
            <p className="text-sm text-slate-900">
              <strong>{result.data.succeeded}</strong> of {result.data.total} succeeded, {result.data.failed} failed ·{" "}
              {result.data.total_latency_ms.toLocaleString("en-US")} ms in total
            </p>
            <ScrollRegion label="Batch results table" className="relative mt-2 rounded-md border border-slate-200 bg-white">
              <table className="min-w-full text-left text-sm">
                <caption className="sr-only">Batch results, in input order</caption>
                <thead className="bg-slate-100">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      id
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Text
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Translation or error
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Served by
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Quality
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {result.data.results.map((item, i) => (
                    <tr key={item.id} className="align-top">
                      <th scope="row" className="whitespace-nowrap px-3 py-2 font-mono font-normal">
                        {item.id}
                      </th>
                      <td className="max-w-[16rem] px-3 py-2 break-words" title={result.texts[i]}>
                        {truncate(result.texts[i] ?? "")}
                      </td>
                      <td className="px-3 py-2">
                        {item.error ? (
                          <span className="text-red-800">
                            {item.error_code ? <code className="font-mono">{item.error_code}</code> : null} {item.error}
                          </span>
                        ) : (
                          <span lang={htmlLang(result.target)}>{item.translated_text}</span>
                        )}
                      </td>
                      <td className="px-3 py-2">{item.provider ? providerLabel(item.provider, providerNames) : "—"}</td>
                      <td className="px-3 py-2">
                        {item.quality_score === null ? "—" : `${item.quality_score.toFixed(2)} ${qualityLabel(item.quality_score).band}`}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            <div className="mt-3">
              <ResponseMeta
                items={[
                  ["Cache", result.cache],
                  ["Request id", requestId],
                ]}
              />
            </div>
          </div>
        )}
        {result && request && <ResultActions result={result.data} path="/api/v1/translate/batch" request={request} />}
      </div>
    </section>
  );
}
