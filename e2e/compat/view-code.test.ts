import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSnippets, type SnippetRequest } from "@/lib/portal/snippets";
import { hostileTranslation } from "@/lib/providers/sandbox";
import { TTS_MEDIA_TYPES, type TtsFormat } from "@/lib/speech/formats";
import { call, mintKey } from "../support/api";
import { COLD_START_MS, type RunningApp, startApp, stopAllApps } from "../support/app";

/*
 * The playground's "View code" for the tools people already have runs as written: each `tools` snippet of a
 * translation (LibreTranslate and DeepL as curl, an MCP client's settings, the MCP SDK), of speech and of a
 * transcription (OpenAI's audio API as curl and with OpenAI's Node SDK) runs unchanged but for the server's address
 * and the key the playground fills in — curl with bash, JavaScript with node from a folder of the repository, where
 * `openai` and `@modelcontextprotocol/client` resolve as they would after `npm install` — against the built app. Each
 * snippet gets a key of its own, and the key's request log shows the call: the key filled in is the one used.
 */

const run = promisify(execFile);

let app: RunningApp;
let dir: string;
/** The recording Transcribe sends, and what POST /api/v1/speech/stt hears in it. */
const RECORDING = "recording.wav";
let transcript: string;

beforeAll(async () => {
  app = await startApp({
    env: { RATE_LIMIT_TTS: "1000/60s", RATE_LIMIT_STT: "1000/60s", RATE_LIMIT_DEFAULT: "1000/60s", RATE_LIMIT_ISSUANCE: "1000/60s" },
    readyTimeoutMs: COLD_START_MS,
  });
  mkdirSync("test-results", { recursive: true });
  dir = mkdtempSync(path.resolve("test-results", "view-code-"));
  const key = await mintKey(app.url, "recording");
  const tts = await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: "Wasuze otya", language: "lug" } });
  writeFileSync(path.join(dir, RECORDING), Buffer.from(tts.body.audio_base64, "base64"));
  const form = new FormData();
  form.set("audio", new Blob([readFileSync(path.join(dir, RECORDING))]), RECORDING);
  form.set("language", "lug");
  const stt = await call(app.url, "POST", "/api/v1/speech/stt", { key, body: form });
  expect(stt.status, stt.text).toBe(200);
  transcript = stt.body.transcript;
  expect(transcript.length).toBeGreaterThan(0);
});
afterAll(async () => {
  await stopAllApps();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The tools snippet of `request` whose label begins with `label`, with a fresh key filled in. */
async function tool(request: SnippetRequest, label: string) {
  const key = await mintKey(app.url, `view code: ${label}`);
  const found = buildSnippets(request, app.url, key).tools.find((t) => t.label.startsWith(label));
  expect(found, `a tools snippet labelled ${label}`).toBeDefined();
  expect(found!.code).toContain(key);
  return { key, code: found!.code };
}

const runCurl = async (code: string) => (await run("bash", ["-c", code], { cwd: dir, timeout: 60_000 })).stdout;

async function runNode(code: string) {
  const file = path.join(dir, "snippet.mjs");
  writeFileSync(file, code);
  return (await run(process.execPath, [file], { cwd: dir, timeout: 60_000 })).stdout;
}

/** The key's request log shows `endpoint` answered 200: the snippet used the key it was given. */
async function expectCalledWith(key: string, endpoint: string) {
  const log = await call(app.url, "GET", "/api/v1/usage/requests", { key });
  expect(log.status).toBe(200);
  expect(log.body.requests).toContainEqual(expect.objectContaining({ endpoint, status: 200 }));
}

describe("a translation's tools snippets", () => {
  const request: SnippetRequest = { kind: "json", path: "/api/v1/translate", body: { text: "Good morning", source_lang: "en", target_lang: "lug" } };
  const translated = hostileTranslation("Good morning");

  it("LibreTranslate (curl): translatedText", async () => {
    const { key, code } = await tool(request, "LibreTranslate");
    expect(JSON.parse(await runCurl(code)).translatedText).toContain(translated);
    await expectCalledWith(key, "POST /compat/libretranslate/translate");
  });

  it("DeepL (curl): translations[0].text", async () => {
    const { key, code } = await tool(request, "DeepL");
    expect(JSON.parse(await runCurl(code)).translations[0].text).toContain(translated);
    await expectCalledWith(key, "POST /compat/deepl/v2/translate");
  });

  it("MCP client settings: the MCP SDK's client with exactly that url and headers calls translate", async () => {
    const { key, code } = await tool(request, "MCP clients");
    const { url, headers } = JSON.parse(code).mcpServers.lugha;
    const client = new Client({ name: "view-code-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    const result = await client.callTool({ name: "translate", arguments: (request as { body: Record<string, unknown> }).body });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { translated_text: string }).translated_text).toContain(translated);
    await expectCalledWith(key, "POST /mcp translate");
  });

  it("MCP SDK (node): the translate tool's structured result", async () => {
    const { key, code } = await tool(request, "MCP (");
    const stdout = await runNode(code);
    expect(stdout).toContain(translated);
    expect(stdout).toMatch(/sandbox: true/);
    await expectCalledWith(key, "POST /mcp translate");
  });
});

/** The file a speech snippet wrote begins as its format does: RIFF (WAV), an ID3 tag or an MPEG frame (MP3), OggS. */
function expectSpeechFile(format: TtsFormat) {
  const head = readFileSync(path.join(dir, `speech.${TTS_MEDIA_TYPES[format].extension}`)).subarray(0, 4);
  if (format === "wav") expect(head.toString("latin1")).toBe("RIFF");
  if (format === "opus") expect(head.toString("latin1")).toBe("OggS");
  if (format === "mp3") expect(head.toString("latin1").startsWith("ID3") || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)).toBe(true);
}

describe("speech's tools snippets: OpenAI's audio API", () => {
  const SPEAK: [string, SnippetRequest & { kind: "speak" }, TtsFormat][] = [
    ["raw WAV", { kind: "speak", body: { text: "Wasuze otya", language: "lug" }, raw: true }, "wav"],
    ["JSON MP3", { kind: "speak", body: { text: "Wasuze otya", language: "lug", format: "mp3" }, raw: false, format: "mp3" }, "mp3"],
    ["raw Ogg/Opus", { kind: "speak", body: { text: "Habari yako", language: "sw" }, raw: true, format: "opus" }, "opus"],
  ];
  for (const [name, request, format] of SPEAK) {
    for (const [label, runner] of [
      ["OpenAI audio API", runCurl],
      ["OpenAI's Node SDK", runNode],
    ] as const) {
      it(`${name}: ${label} writes the audio file`, async () => {
        const { key, code } = await tool(request, label);
        for (const f of Object.values(TTS_MEDIA_TYPES)) rmSync(path.join(dir, `speech.${f.extension}`), { force: true });
        await runner(code);
        expectSpeechFile(format);
        await expectCalledWith(key, "POST /compat/openai/v1/audio/speech");
      });
    }
  }
});

describe("a transcription's tools snippets: OpenAI's audio API", () => {
  const request: SnippetRequest = { kind: "transcribe", file: RECORDING, fields: { language: "lug" } };

  it("curl: the transcript the native route hears, as OpenAI's JSON", async () => {
    const { key, code } = await tool(request, "OpenAI audio API");
    expect(JSON.parse(await runCurl(code)).text).toBe(transcript);
    await expectCalledWith(key, "POST /compat/openai/v1/audio/transcriptions");
  });

  it("OpenAI's Node SDK: the transcript", async () => {
    const { key, code } = await tool(request, "OpenAI's Node SDK");
    expect((await runNode(code)).trim()).toBe(transcript.trim());
    await expectCalledWith(key, "POST /compat/openai/v1/audio/transcriptions");
  });
});
