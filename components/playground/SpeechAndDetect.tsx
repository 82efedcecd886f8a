"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { DetectResponse } from "@/lib/detect/schemas";
import { formatBytes } from "@/lib/kit/bytes";
import { formatSeconds } from "@/lib/portal/api";
import { htmlLang } from "@/lib/portal/lang";
import { microphoneProblem, RECORDING_BITS_PER_SECOND, recordingClock, recordingExtension, recordingMimeType } from "@/lib/portal/recording";
import type { SttResponse } from "@/lib/speech/schemas";
import { TextField } from "./CharCounter";
import { LanguageSelect } from "./LanguageFields";
import { usePlayground } from "./PlaygroundContext";
import { ProblemBox } from "./ProblemBox";
import { ResponseMeta } from "./ResponseMeta";
import { ResultActions } from "./ResultActions";
import { usePanelShown } from "./Tabs";
import { useApiCall } from "./useApiCall";

/** The Detect and Transcribe tabs of the playground (POST /api/v1/detect, POST /api/v1/speech/stt). */

const percent = (n: number) => `${Math.round(n * 100)}%`;

export function DetectSection({ names, maxChars }: { names: Map<string, string>; maxChars: number }) {
  const id = useId();
  const [text, setText] = useState("Abaana bagenda ku ssomero buli lunaku.");
  const { busy, result, problem, submit, request, requestId } = useApiCall("default", "/api/v1/detect", (data: DetectResponse) => data.results[0]);
  const label = (code: string) => (names.get(code) ? `${names.get(code)} (${code})` : code);

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
        Detect the language
      </h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit({ text });
        }}
        className="mt-3 space-y-4"
        aria-label="Detect a language"
      >
        <TextField id={id} text={text} onChange={setText} limit={maxChars} />
        <button type="submit" className="btn-primary" disabled={busy || text.trim() === ""}>
          {busy ? "Detecting…" : "Detect"}
        </button>
      </form>
      <div aria-live="polite" className="mt-5 space-y-3">
        {problem && <ProblemBox problem={problem} what="Detection" />}
        {result && (
          <div data-testid="detect-result" className="rounded-md border border-slate-200 p-4 text-sm">
            <p className="text-base">
              <strong>{label(result.language)}</strong>, {percent(result.confidence)} confident —{" "}
              {result.reliable ? "reliable" : `not reliable (${result.reason}): pass source_lang yourself`}
            </p>
            <p className="mt-2 text-slate-700">Candidates, best first:</p>
            <ol className="mt-1 list-decimal pl-5">
              {result.candidates.map((c) => (
                <li key={c.language}>
                  {label(c.language)} — {percent(c.confidence)}
                </li>
              ))}
            </ol>
            <div className="mt-3">
              <ResponseMeta items={[["Request id", requestId]]} />
            </div>
          </div>
        )}
        {result && request && <ResultActions result={result} path="/api/v1/detect" request={request} />}
      </div>
    </section>
  );
}

/** Where the Transcribe tab remembers the key's last language (this browser only). */
const sttLanguageKey = (prefix: string) => `lugha:stt-language:${prefix}`;

/** A speech-to-text request's limits on this server: the upload's bytes and the recording's seconds. */
export interface TranscribeLimits {
  maxBytes: number;
  maxSeconds: number;
}

export function TranscribeSection({ languages, limits }: { languages: { code: string; name: string }[]; limits: TranscribeLimits }) {
  const id = useId();
  const { expectedPrefix, providerNames } = usePlayground();
  // No default language: the last one this key used here, or the person's choice (never silently the first listed).
  const [language, setLanguage] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [audioUrl, setAudioUrl] = useState("");
  const { busy, result, problem, submit, request, requestId } = useApiCall("stt", "/api/v1/speech/stt", (data: SttResponse) => data);
  const byUrl = audioUrl.trim() !== "";
  useEffect(() => {
    const last = window.localStorage.getItem(sttLanguageKey(expectedPrefix));
    if (last && languages.some((l) => l.code === last)) setLanguage(last);
  }, [expectedPrefix, languages]);
  useEffect(() => {
    if (result) window.localStorage.setItem(sttLanguageKey(expectedPrefix), result.language);
  }, [result, expectedPrefix]);

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
        Transcribe speech
      </h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!language) return;
          // A link is sent as JSON: the server fetches the recording itself (larger recordings than an upload).
          if (byUrl) return void submit({ audio_url: audioUrl.trim(), language });
          if (!file) return;
          const form = new FormData();
          form.set("audio", file);
          form.set("language", language);
          void submit(form);
        }}
        className="mt-3 space-y-4"
        aria-label="Transcribe a recording"
      >
        <div>
          <label htmlFor={`${id}-file`} className="field-label">
            Recording (WAV, MP3, OGG, FLAC, WebM or M4A)
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept="audio/*"
            className="field-input"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            aria-describedby={`${id}-file-hint`}
          />
          <p id={`${id}-file-hint`} className="mt-1 text-xs text-slate-700">
            Up to {formatBytes(limits.maxBytes)} and {formatSeconds(limits.maxSeconds)} of audio per request on this server.
          </p>
        </div>
        <Recorder onRecorded={setFile} maxSeconds={limits.maxSeconds} maxBytes={limits.maxBytes} />
        {file && !byUrl && (
          <p className="text-sm text-slate-800" data-testid="chosen-audio">
            Ready to send: {file.name} ({formatBytes(file.size)})
          </p>
        )}
        <div>
          <label htmlFor={`${id}-url`} className="field-label">
            Or a link to the audio (https; used instead of the file)
          </label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://example.org/interview.wav"
            className="field-input"
            value={audioUrl}
            onChange={(e) => setAudioUrl(e.target.value)}
          />
        </div>
        <LanguageSelect
          id={`${id}-language`}
          label="Language spoken"
          languages={languages}
          value={language}
          onChange={setLanguage}
          placeholder="Choose the language spoken"
        />
        <button type="submit" className="btn-primary" disabled={busy || (!file && !byUrl) || !language}>
          {busy ? "Transcribing…" : "Transcribe"}
        </button>
      </form>
      <div aria-live="polite" className="mt-5 space-y-3">
        {problem && <ProblemBox problem={problem} what="Transcription" />}
        {result && (
          <div data-testid="transcribe-result" className="rounded-md border border-slate-200 p-4 text-sm">
            <p className="text-base" lang={htmlLang(result.language)}>
              {result.transcript}
            </p>
            {result.segments && result.segments.length > 1 && (
              <ol className="mt-2 space-y-1 text-slate-800" aria-label="Timed segments">
                {result.segments.map((s) => (
                  <li key={s.start}>
                    <span className="font-mono text-slate-600">
                      {s.start.toFixed(1)}–{s.end.toFixed(1)} s
                    </span>{" "}
                    <span lang={htmlLang(result.language)}>{s.text}</span>
                  </li>
                ))}
              </ol>
            )}
            <div className="mt-3">
              <ResponseMeta
                items={[
                  ["Provider", providerNames[result.provider] ? `${providerNames[result.provider]} (${result.provider})` : result.provider],
                  ["Model", result.model_used],
                  ["Audio duration", `${result.audio_duration_seconds.toLocaleString("en-US")} s`],
                  ["Received as", result.audio_content_type],
                  ["Time taken", `${result.latency_ms.toLocaleString("en-US")} ms`],
                  ["Request id", requestId],
                ]}
              />
            </div>
          </div>
        )}
        {result && request && <ResultActions result={result} path="/api/v1/speech/stt" request={request} />}
      </div>
    </section>
  );
}

/** Why a recording ended: the Stop button, the per-request limit (length or size), or the tab left while recording. */
type StopReason = "button" | "length" | "size" | "left";

/** Stop this much before the length limit, so the recording's own duration stays within it. */
const LENGTH_MARGIN_SECONDS = 0.5;
/** Stop once this share of the upload limit is recorded: the last second is still to come when the recorder stops. */
const SIZE_STOP_SHARE = 0.9;

/**
 * Records from the microphone with MediaRecorder and hands over the recording as the browser made it (WebM/Opus in
 * Chromium and Firefox, MP4 in Safari: lib/portal/recording.ts): the API decodes it. Shows the time recorded, stops at
 * the per-request limits (`maxSeconds` of audio, `maxBytes` of upload), and releases the microphone when the tab is left
 * or the page goes (panels stay mounted when hidden, so leaving the tab is watched for).
 */
function Recorder({ onRecorded, maxSeconds, maxBytes }: { onRecorded(file: File): void; maxSeconds: number; maxBytes: number }) {
  const shown = usePanelShown();
  const shownRef = useRef(shown);
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ url: string; name: string } | null>(null);
  const session = useRef<{ recorder: MediaRecorder; stream: MediaStream; startedAt: number; reason: StopReason } | null>(null);

  const stop = useCallback((reason: StopReason) => {
    const s = session.current;
    if (!s || s.recorder.state === "inactive") return;
    s.reason = reason;
    s.recorder.stop();
  }, []);

  useEffect(() => {
    shownRef.current = shown;
    if (!shown) stop("left");
  }, [shown, stop]);
  // The page goes (another page, "Forget key"): the microphone is released and nothing more is done.
  useEffect(
    () => () => {
      const s = session.current;
      if (!s) return;
      s.recorder.ondataavailable = null;
      s.recorder.onstop = null;
      if (s.recorder.state !== "inactive") s.recorder.stop();
      for (const track of s.stream.getTracks()) track.stop();
    },
    [],
  );
  useEffect(() => {
    if (!recording) return;
    const tick = setInterval(() => setElapsed((Date.now() - (session.current?.startedAt ?? Date.now())) / 1000), 250);
    const limit = setTimeout(() => stop("length"), (maxSeconds - LENGTH_MARGIN_SECONDS) * 1000);
    return () => {
      clearInterval(tick);
      clearTimeout(limit);
    };
  }, [recording, maxSeconds, stop]);
  useEffect(() => (saved ? () => URL.revokeObjectURL(saved.url) : undefined), [saved]);

  async function start() {
    setMessage(null);
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") return setMessage(microphoneProblem({ name: "Unsupported" }));
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      return setMessage(microphoneProblem(err));
    }
    const release = () => {
      for (const track of stream.getTracks()) track.stop();
    };
    // The tab was left while the browser asked for permission: nothing to record for.
    if (!shownRef.current) return release();
    let recorder: MediaRecorder;
    try {
      const mimeType = recordingMimeType(MediaRecorder.isTypeSupported?.bind(MediaRecorder));
      recorder = new MediaRecorder(stream, { ...(mimeType ? { mimeType } : {}), audioBitsPerSecond: RECORDING_BITS_PER_SECOND });
    } catch (err) {
      release();
      return setMessage(microphoneProblem(err));
    }
    const chunks: Blob[] = [];
    let bytes = 0;
    const s = { recorder, stream, startedAt: Date.now(), reason: "button" as StopReason };
    session.current = s;
    recorder.ondataavailable = (e) => {
      if (e.data.size === 0) return;
      chunks.push(e.data);
      bytes += e.data.size;
      if (bytes >= maxBytes * SIZE_STOP_SHARE) stop("size");
    };
    recorder.onstop = () => {
      release();
      session.current = null;
      setRecording(false);
      const seconds = (Date.now() - s.startedAt) / 1000;
      const type = recorder.mimeType || chunks[0]?.type || "";
      const blob = new Blob(chunks, { type });
      if (blob.size === 0) return setMessage("Nothing was recorded. Try again, or upload a file instead.");
      if (blob.size > maxBytes)
        return setMessage(
          `The recording is ${formatBytes(blob.size)}; this server takes at most ${formatBytes(maxBytes)} per request. Record a shorter one, or upload a file instead.`,
        );
      const file = new File([blob], `recording.${recordingExtension(type)}`, { type });
      onRecorded(file);
      setSaved({ url: URL.createObjectURL(file), name: file.name });
      const at = recordingClock(seconds);
      setMessage(
        s.reason === "length"
          ? `Stopped at ${at}: this server takes at most ${formatSeconds(maxSeconds)} of audio per request. The recording is ready to send.`
          : s.reason === "size"
            ? `Stopped at ${at}, near this server's upload limit of ${formatBytes(maxBytes)}. The recording is ready to send.`
            : s.reason === "left"
              ? `Stopped at ${at} when you left the Transcribe tab. The recording is ready to send.`
              : `Recorded ${at}.`,
      );
    };
    // Every second a chunk: the size is known while recording, so the upload limit is never passed.
    recorder.start(1000);
    setElapsed(0);
    setRecording(true);
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        {recording ? (
          <button type="button" className="btn-danger" onClick={() => stop("button")}>
            Stop recording
          </button>
        ) : (
          <button type="button" className="btn-secondary" onClick={start}>
            Record from the microphone
          </button>
        )}
        {recording && (
          <span className="flex items-center gap-2 text-sm text-slate-900">
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-red-700 motion-safe:animate-pulse" />
            <span role="timer" aria-label="Time recorded" className="font-mono tabular-nums" data-testid="recording-time">
              {recordingClock(elapsed)}
            </span>
            <span className="text-slate-700">of at most {recordingClock(maxSeconds)}</span>
          </span>
        )}
      </div>
      <p role="status" className="text-sm text-slate-800" data-testid="recorder-status">
        {recording ? "Recording… speak now." : (message ?? "")}
      </p>
      {saved && !recording && (
        <a
          href={saved.url}
          download={saved.name}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline underline-offset-2"
        >
          Save {saved.name}
        </a>
      )}
    </div>
  );
}
