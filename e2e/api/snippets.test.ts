import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSnippets, type SnippetRequest } from "@/lib/portal/snippets";
import { TTS_MEDIA_TYPES } from "@/lib/speech/formats";
import { call, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/*
 * The playground's "View code" runs as written: for the request of each tab (Translate, Batch, Detect, Speak in both
 * response forms and in MP3 and Ogg/Opus, Transcribe), the JavaScript snippet runs with node and the Python one with python3 — the repository's
 * clients/python on PYTHONPATH, as `pip install ./clients/python` would make it importable — against the built app,
 * unchanged but for the server's address and the key the playground fills in.
 */

const run = promisify(execFile);

/** Before each run: a Speak snippet's file must be its own. */
function removeSpeechFiles() {
  for (const { extension } of Object.values(TTS_MEDIA_TYPES)) rmSync(path.join(dir, `speech.${extension}`), { force: true });
}

/** The file a Speak snippet wrote begins as its format does: RIFF (WAV), an ID3 tag or an MPEG frame (MP3), OggS. */
function expectSpeechFile(request: SnippetRequest & { kind: "speak" }) {
  const format = request.format ?? "wav";
  const head = readFileSync(path.join(dir, `speech.${TTS_MEDIA_TYPES[format].extension}`)).subarray(0, 4);
  if (format === "wav") expect(head.toString("latin1")).toBe("RIFF");
  if (format === "opus") expect(head.toString("latin1")).toBe("OggS");
  if (format === "mp3") expect(head.toString("latin1").startsWith("ID3") || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)).toBe(true);
}
let app: RunningApp;
let key: string;
let dir: string;

beforeAll(async () => {
  app = await startApp();
  key = await mintKey(app.url, "snippets");
  dir = mkdtempSync(path.join(tmpdir(), "lugha-snippets-"));
  // The recording Transcribe sends: speech from the sandbox's text-to-speech, under the name the browser gave it.
  const tts = await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: "Wasuze otya", language: "lug" } });
  writeFileSync(path.join(dir, "recording.wav"), Buffer.from(tts.body.audio_base64, "base64"));
});
afterAll(async () => {
  await stopAllApps();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const TABS: [string, SnippetRequest, RegExp][] = [
  [
    "Translate",
    { kind: "json", path: "/api/v1/translate", body: { text: "Good morning", target_lang: "lug", source_lang: "en", do_not_translate: ["Lugha"] } },
    /translated_text/,
  ],
  [
    "Batch",
    {
      kind: "json",
      path: "/api/v1/translate/batch",
      body: { items: [{ id: "line-1", text: "Thank you", target_lang: "sw", source_lang: "en" }], format: "text" },
    },
    /succeeded/,
  ],
  ["Detect", { kind: "json", path: "/api/v1/detect", body: { text: "Habari yako rafiki" } }, /candidates/],
  ["Speak (JSON)", { kind: "speak", body: { text: "Wasuze otya", language: "lug" }, raw: false }, /audio_duration_seconds/],
  ["Speak (raw audio)", { kind: "speak", body: { text: "Wasuze otya", language: "lug" }, raw: true }, /X-Lugha-Provider: \w+/],
  ["Speak (JSON, MP3)", { kind: "speak", body: { text: "Wasuze otya", language: "lug", format: "mp3" }, raw: false, format: "mp3" }, /audio\/mpeg/],
  [
    "Speak (raw audio, Ogg/Opus)",
    { kind: "speak", body: { text: "Wasuze otya", language: "lug" }, raw: true, format: "opus" },
    /audio\/ogg; codecs=opus/,
  ],
  ["Transcribe", { kind: "transcribe", file: "recording.wav", fields: { language: "lug" } }, /transcript/],
  [
    "Catalog",
    {
      kind: "json",
      path: "/api/v1/translate/catalog",
      body: { format: "json", content: '{"greeting": "Good morning, {name}!"}', source_lang: "en", target_lang: "lug" },
    },
    /\{name\}/,
  ],
];

describe("View code runs unchanged", () => {
  for (const [tab, request, expected] of TABS) {
    it(`${tab}: JavaScript with node`, async () => {
      const { js } = buildSnippets(request, app.url, key);
      const file = path.join(dir, `${tab.replace(/\W+/g, "-")}.mjs`);
      writeFileSync(file, js);
      removeSpeechFiles();
      const { stdout } = await run(process.execPath, [file], { cwd: dir, timeout: 60_000 });
      expect(stdout).toMatch(expected);
      if (request.kind === "speak") expectSpeechFile(request);
    });

    it(`${tab}: Python with python3`, async () => {
      const { python } = buildSnippets(request, app.url, key);
      const file = path.join(dir, `${tab.replace(/\W+/g, "_")}.py`);
      writeFileSync(file, python);
      removeSpeechFiles();
      const env = { ...process.env, PYTHONPATH: path.resolve("clients/python/src") };
      const { stdout } = await run("python3", [file], { cwd: dir, env, timeout: 60_000 });
      expect(stdout).toMatch(expected);
      if (request.kind === "speak") expectSpeechFile(request);
    });
  }
});
