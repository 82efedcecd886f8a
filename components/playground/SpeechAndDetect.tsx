"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { DetectResponse } from "@/lib/detect/schemas";
import { htmlLang } from "@/lib/portal/lang";
import { encodeWav } from "@/lib/portal/wav";
import type { SttResponse } from "@/lib/speech/schemas";
import { TextField } from "./CharCounter";
import { LanguageSelect } from "./LanguageFields";
import { usePlayground } from "./PlaygroundContext";
import { ProblemBox } from "./ProblemBox";
import { ResponseMeta } from "./ResponseMeta";
import { ResultActions } from "./ResultActions";
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

export function TranscribeSection({ languages }: { languages: { code: string; name: string }[] }) {
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
          <input id={`${id}-file`} type="file" accept="audio/*" className="field-input" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
        <Recorder onRecorded={setFile} />
        {file && !byUrl && (
          <p className="text-sm text-slate-800" data-testid="chosen-audio">
            Ready to send: {file.name} ({Math.ceil(file.size / 1024).toLocaleString("en-US")} kB)
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

/**
 * Records from the microphone with MediaRecorder, then decodes the recording with Web Audio and re-encodes it as WAV
 * in the browser (lib/portal/wav.ts): browsers record WebM or MP4, which not every speech provider accepts.
 */
function Recorder({ onRecorded }: { onRecorded(file: File): void }) {
  const [state, setState] = useState<"idle" | "recording" | "converting">("idle");
  const [message, setMessage] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);

  async function start() {
    setMessage(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setMessage("The browser did not give access to a microphone. Upload a file instead.");
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream);
    rec.ondataavailable = (e) => chunks.push(e.data);
    rec.onstop = async () => {
      for (const track of stream.getTracks()) track.stop();
      setState("converting");
      try {
        const context = new AudioContext();
        const decoded = await context.decodeAudioData(await new Blob(chunks).arrayBuffer());
        await context.close();
        const channels = Array.from({ length: decoded.numberOfChannels }, (_, i) => decoded.getChannelData(i));
        onRecorded(new File([encodeWav(channels, decoded.sampleRate)], "recording.wav", { type: "audio/wav" }));
      } catch {
        setMessage("The recording could not be converted to WAV. Upload a file instead.");
      }
      setState("idle");
    };
    recorder.current = rec;
    rec.start();
    setState("recording");
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      {state === "recording" ? (
        <button type="button" className="btn-danger" onClick={() => recorder.current?.stop()}>
          Stop recording
        </button>
      ) : (
        <button type="button" className="btn-secondary" onClick={start} disabled={state === "converting"}>
          {state === "converting" ? "Converting to WAV…" : "Record from the microphone"}
        </button>
      )}
      <span role="status" className="text-sm text-slate-800">
        {state === "recording" ? "Recording… speak now." : (message ?? "")}
      </span>
    </div>
  );
}
