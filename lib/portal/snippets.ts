/**
 * "View code" for the playground: the request a tab just made, as curl, JavaScript and Python that run as written
 * against this server with the key filled in. Client-safe (no server imports); each tab describes its request as a
 * SnippetRequest and gets its three snippets from buildSnippets — a new tab adds a request kind (or uses "json").
 *
 *  - JavaScript: plain fetch (Node 18+ as an ES module, or a browser console), so nothing needs installing.
 *  - Python: the Lugha client of this repository (`pip install ./clients/python`) where it has a method for the
 *    endpoint; otherwise (and for raw audio) the standard library's urllib — no third-party package either way.
 *  - tools: the same call through the other protocols Lugha speaks (the guide's "Use Lugha from the tools you already
 *    have"): a translation through LibreTranslate, DeepL and the MCP server; speech and transcription through OpenAI's
 *    audio API, as curl and with OpenAI's Node SDK.
 */

import { openaiModelId, protocolCode } from "@/lib/compat/codes";
import { TTS_MEDIA_TYPES, type TtsFormat } from "@/lib/speech/formats";

export type SnippetRequest =
  /** POST a JSON body to `path`: translate, batch, detect, or any other JSON endpoint (`path`). */
  | { kind: "json"; path: string; body: Record<string, unknown> }
  /**
   * POST /api/v1/speech/tts: JSON with audio_base64 (`raw` false; the body's `format` names the format) or the audio's
   * bytes (`raw` true, Accept: the format's media type). `format` (default WAV) names the file the snippet writes.
   */
  | { kind: "speak"; body: Record<string, unknown>; raw: boolean; format?: TtsFormat }
  /** POST /api/v1/speech/stt as multipart: the file (read from disk under its name) and the text fields. */
  | { kind: "transcribe"; file: string; fields: Record<string, string> };

export interface Snippets {
  curl: string;
  js: string;
  python: string;
  /** What to install first, per language (null: nothing). */
  install: { js: string | null; python: string | null };
  /**
   * The same call through the other protocols, for the tools that speak them: a translation through LibreTranslate
   * and DeepL (curl, under /compat) and MCP (a client's settings, and the MCP SDK); speech and a transcription through
   * OpenAI's audio API (curl, and OpenAI's Node SDK). Empty for other requests. Each label names the tools that use it.
   */
  tools: { label: string; code: string }[];
}

export const PYTHON_INSTALL = "pip install ./clients/python  # from a checkout of this repository";
const TTS = "/api/v1/speech/tts";
const STT = "/api/v1/speech/stt";
const OPENAI_BASE = "/compat/openai/v1";
const MCP = "/mcp";

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
const js = (v: unknown, indent = "") => JSON.stringify(v, null, 2).replaceAll("\n", `\n${indent}`);

/** A JSON value as a Python literal (JSON's syntax but for true, false and null). */
export function pythonLiteral(value: unknown, indent = ""): string {
  const pad = `${indent}    `;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${pad}${pythonLiteral(v, pad)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(v, pad)},`).join("\n")}\n${indent}}`;
}

const isIdentifier = (k: string) => /^[a-z_][a-z0-9_]*$/.test(k);

/** Keyword arguments for a client method: `name=value` lines. */
const kwargs = (body: Record<string, unknown>, indent: string) =>
  Object.entries(body)
    .map(([k, v]) => `${indent}${k}=${pythonLiteral(v, indent)},`)
    .join("\n");

/** The Python client's method for a JSON endpoint, when its keyword arguments are exactly the body's fields. */
function pythonMethod(path: string, body: Record<string, unknown>): string | null {
  const method =
    path === "/api/v1/translate"
      ? "translate"
      : path === "/api/v1/translate/batch"
        ? "translate_batch"
        : path === "/api/v1/detect" && typeof body.text === "string" && Object.keys(body).length === 1
          ? "detect"
          : null;
  return method && Object.keys(body).every(isIdentifier) ? method : null;
}

const pythonClient = (origin: string, apiKey: string) => `import json

import lugha

client = lugha.Client("${apiKey}", base_url="${origin}")`;

const pythonUrllib = (origin: string, apiKey: string) => `import json
import urllib.request

API = "${origin}"
KEY = "${apiKey}"`;

export function buildSnippets(request: SnippetRequest, origin: string, apiKey: string): Snippets {
  if (request.kind === "transcribe") return transcribeSnippets(request, origin, apiKey);
  if (request.kind === "speak") return speakSnippets(request, origin, apiKey);
  return jsonSnippets(request.path, request.body, origin, apiKey);
}

/** A translation of one text through LibreTranslate and DeepL (guide: "Use Lugha from the tools you already have"). */
function toolSnippets(path: string, body: Record<string, unknown>, origin: string, apiKey: string): Snippets["tools"] {
  if (path !== "/api/v1/translate" || typeof body.text !== "string" || typeof body.target_lang !== "string") return [];
  const source = typeof body.source_lang === "string" && body.source_lang ? protocolCode(body.source_lang) : undefined;
  const target = protocolCode(body.target_lang);
  const libre = { q: body.text, source: source ?? "auto", target, ...(body.format === "html" ? { format: "html" } : {}), api_key: apiKey };
  const deepl = [
    `-d text=${shellQuote(encodeURIComponent(body.text))}`,
    ...(source ? [`-d source_lang=${source.toUpperCase()}`] : []),
    `-d target_lang=${target.toUpperCase()}`,
    ...(body.format === "html" ? ["-d tag_handling=html"] : []),
  ];
  return [
    {
      label: "LibreTranslate (Weblate, Mastodon, Discourse): curl",
      code: `curl -sS ${origin}/compat/libretranslate/translate \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(JSON.stringify(libre))}`,
    },
    {
      label: "DeepL API (DeepL's SDKs with serverUrl, Weblate): curl",
      code: `curl -sS ${origin}/compat/deepl/v2/translate \\
  -H "Authorization: DeepL-Auth-Key ${apiKey}" \\
  ${deepl.join(" \\\n  ")}`,
    },
    ...mcpSnippets(body, origin, apiKey),
  ];
}

/**
 * The translation as an MCP tool call: the settings of a client that takes a remote server with headers (the shape of
 * Cursor's mcp.json; the guide gives VS Code's, Windsurf's and Claude Desktop's), and the MCP SDK's client calling the
 * translate tool, whose arguments are POST /api/v1/translate's body.
 */
function mcpSnippets(body: Record<string, unknown>, origin: string, apiKey: string): Snippets["tools"] {
  const settings = { mcpServers: { lugha: { url: `${origin}${MCP}`, headers: { Authorization: `Bearer ${apiKey}` } } } };
  return [
    { label: "MCP clients (Cursor's .cursor/mcp.json, and clients that read the same shape): settings", code: JSON.stringify(settings, null, 2) },
    {
      label: "MCP (the MCP SDK's client, for an agent of your own; npm install @modelcontextprotocol/client): JavaScript",
      code: `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const client = new Client({ name: "my-app", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL("${origin}${MCP}"), { requestInit: { headers: { Authorization: "Bearer ${apiKey}" } } }),
);
const result = await client.callTool({
  name: "translate",
  arguments: ${js(body, "  ")},
});
await client.close();
// A refused call is a result with isError; its structured content is the API's error envelope.
if (result.isError) throw new Error(JSON.stringify(result.structuredContent));
console.log(result.structuredContent);`,
    },
  ];
}

/** OpenAI's Node SDK pointed at the OpenAI audio surface. */
const openaiClient = (origin: string, apiKey: string) => `const client = new OpenAI({ baseURL: "${origin}${OPENAI_BASE}", apiKey: "${apiKey}" });`;

/**
 * Speech through OpenAI's audio API (Open WebUI, LibreChat, apps on OpenAI's SDKs): the model names the language; a
 * voice the tab chose is sent as is, else OpenAI's default name, which means the language's default voice here.
 */
function openaiSpeechSnippets(body: Record<string, unknown>, format: TtsFormat, origin: string, apiKey: string): Snippets["tools"] {
  if (typeof body.text !== "string" || typeof body.language !== "string") return [];
  const request = {
    model: openaiModelId("tts", body.language),
    input: body.text,
    voice: typeof body.voice === "string" && body.voice ? body.voice : "alloy",
    response_format: format,
  };
  const out = `speech.${TTS_MEDIA_TYPES[format].extension}`;
  return [
    {
      label: "OpenAI audio API (Open WebUI, LibreChat, OpenAI's SDKs): curl",
      code: `curl -sS ${origin}${OPENAI_BASE}/audio/speech \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(JSON.stringify(request))} \\
  -o ${out}`,
    },
    {
      label: "OpenAI's Node SDK (npm install openai): JavaScript",
      code: `import { writeFile } from "node:fs/promises";
import OpenAI from "openai";

${openaiClient(origin, apiKey)}
const speech = await client.audio.speech.create(${js(request)});
await writeFile("${out}", new Uint8Array(await speech.arrayBuffer()));
console.log("wrote ${out}; request id:", speech.headers.get("x-request-id"));`,
    },
  ];
}

/** A transcription through OpenAI's audio API: the model names the language. */
function openaiTranscriptionSnippets(file: string, language: string | undefined, origin: string, apiKey: string): Snippets["tools"] {
  if (!language) return [];
  const model = openaiModelId("stt", language);
  return [
    {
      label: "OpenAI audio API (Open WebUI, LibreChat, OpenAI's SDKs): curl",
      code: `curl -sS ${origin}${OPENAI_BASE}/audio/transcriptions \\
  -H "Authorization: Bearer ${apiKey}" \\
  -F ${shellQuote(`file=@${file}`)} \\
  -F model=${model}`,
    },
    {
      label: "OpenAI's Node SDK (npm install openai): JavaScript",
      code: `import fs from "node:fs";
import OpenAI from "openai";

${openaiClient(origin, apiKey)}
const transcription = await client.audio.transcriptions.create({
  file: fs.createReadStream(${JSON.stringify(file)}),
  model: "${model}",
});
console.log(transcription.text);`,
    },
  ];
}

function jsonSnippets(path: string, body: Record<string, unknown>, origin: string, apiKey: string): Snippets {
  const curl = `curl -sS ${origin}${path} \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(JSON.stringify(body))}`;
  const jsCode = `const response = await fetch("${origin}${path}", {
  method: "POST",
  headers: { Authorization: "Bearer ${apiKey}", "Content-Type": "application/json" },
  body: JSON.stringify(${js(body, "  ")}),
});
const data = await response.json();
if (!response.ok) throw new Error(\`\${data.detail.code}: \${data.detail.message} (request \${data.detail.request_id})\`);
console.log(data);
console.log("request id:", response.headers.get("X-Request-Id"));`;
  const method = pythonMethod(path, body);
  const python = method
    ? `${pythonClient(origin, apiKey)}

result = client.${method}(
${kwargs(method === "detect" ? { text: body.text } : body, "    ")}
)
print(json.dumps(result, indent=2, ensure_ascii=False))`
    : `${pythonUrllib(origin, apiKey)}

request = urllib.request.Request(
    API + "${path}",
    data=json.dumps(${pythonLiteral(body, "    ")}).encode(),
    headers={"Authorization": "Bearer " + KEY, "Content-Type": "application/json"},
    method="POST",
)
with urllib.request.urlopen(request, timeout=60) as response:
    print(json.dumps(json.load(response), indent=2, ensure_ascii=False))
    print("request id:", response.headers["X-Request-Id"])`;
  return { curl, js: jsCode, python, install: { js: null, python: method ? PYTHON_INSTALL : null }, tools: toolSnippets(path, body, origin, apiKey) };
}

function speakSnippets(request: { body: Record<string, unknown>; raw: boolean; format?: TtsFormat }, origin: string, apiKey: string): Snippets {
  const { body, raw } = request;
  const { contentType: accept, extension } = TTS_MEDIA_TYPES[request.format ?? "wav"];
  const out = `speech.${extension}`;
  const curl = raw
    ? `# Raw audio: Accept: ${accept} answers with the audio file itself; the details are in X-Lugha-* headers (-D -).
curl -sS ${origin}${TTS} \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -H "Accept: ${accept}" \\
  -d ${shellQuote(JSON.stringify(body))} \\
  -D - -o ${out}`
    : `# JSON: the audio is base64 in audio_base64 (jq decodes it into ${out}).
curl -sS ${origin}${TTS} \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(JSON.stringify(body))} \\
  | jq -r .audio_base64 | base64 --decode > ${out}`;
  const jsCode = raw
    ? `import { writeFile } from "node:fs/promises";

// Accept: ${accept}: the response is the audio file; what spoke it is in the X-Lugha-* headers.
const response = await fetch("${origin}${TTS}", {
  method: "POST",
  headers: { Authorization: "Bearer ${apiKey}", "Content-Type": "application/json", Accept: "${accept}" },
  body: JSON.stringify(${js(body, "  ")}),
});
if (!response.ok) {
  const { detail } = await response.json();
  throw new Error(\`\${detail.code}: \${detail.message} (request \${detail.request_id})\`);
}
await writeFile("${out}", new Uint8Array(await response.arrayBuffer()));
for (const name of ["Content-Type", "X-Lugha-Provider", "X-Lugha-Model-Used", "X-Lugha-Voice", "X-Lugha-Audio-Duration-Seconds", "X-Request-Id"]) {
  console.log(\`\${name}: \${response.headers.get(name)}\`);
}`
    : `import { writeFile } from "node:fs/promises";

// Without Accept: audio/*, the answer is JSON with the audio as base64 in audio_base64.
const response = await fetch("${origin}${TTS}", {
  method: "POST",
  headers: { Authorization: "Bearer ${apiKey}", "Content-Type": "application/json" },
  body: JSON.stringify(${js(body, "  ")}),
});
const data = await response.json();
if (!response.ok) throw new Error(\`\${data.detail.code}: \${data.detail.message} (request \${data.detail.request_id})\`);
const { audio_base64, ...details } = data;
await writeFile("${out}", Buffer.from(audio_base64, "base64"));
console.log(details);`;
  const python = raw
    ? `${pythonUrllib(origin, apiKey)}

# Accept: ${accept}: the response is the audio file; what spoke it is in the X-Lugha-* headers.
request = urllib.request.Request(
    API + "${TTS}",
    data=json.dumps(${pythonLiteral(body, "    ")}).encode(),
    headers={"Authorization": "Bearer " + KEY, "Content-Type": "application/json", "Accept": "${accept}"},
    method="POST",
)
with urllib.request.urlopen(request, timeout=60) as response, open("${out}", "wb") as out:
    out.write(response.read())
    for name in ["Content-Type", "X-Lugha-Provider", "X-Lugha-Model-Used", "X-Lugha-Voice", "X-Lugha-Audio-Duration-Seconds", "X-Request-Id"]:
        print(name + ":", response.headers[name])`
    : `${pythonClient(origin, apiKey)}

# The client asks for JSON and decodes audio_base64 into result["audio"] (the audio file's bytes).
result = client.speak(
${kwargs(body, "    ")}
)
with open("${out}", "wb") as out:
    out.write(result.pop("audio"))
result.pop("audio_base64")
print(json.dumps(result, indent=2, ensure_ascii=False))`;
  return {
    curl,
    js: jsCode,
    python,
    install: { js: null, python: raw ? null : PYTHON_INSTALL },
    tools: openaiSpeechSnippets(body, request.format ?? "wav", origin, apiKey),
  };
}

function transcribeSnippets(request: { file: string; fields: Record<string, string> }, origin: string, apiKey: string): Snippets {
  const { file, fields } = request;
  const curl = [
    `curl -sS ${origin}${STT}`,
    `  -H "Authorization: Bearer ${apiKey}"`,
    `  -F ${shellQuote(`audio=@${file}`)}`,
    ...Object.entries(fields).map(([name, value]) => `  -F ${shellQuote(`${name}=${value}`)}`),
  ].join(" \\\n");
  const jsCode = `import { readFile } from "node:fs/promises";

const form = new FormData();
form.set("audio", new Blob([await readFile(${JSON.stringify(file)})]), ${JSON.stringify(file)});
${Object.entries(fields)
  .map(([name, value]) => `form.set(${JSON.stringify(name)}, ${JSON.stringify(value)});`)
  .join("\n")}
// A FormData body is sent as multipart/form-data, with its boundary.
const response = await fetch("${origin}${STT}", { method: "POST", headers: { Authorization: "Bearer ${apiKey}" }, body: form });
const data = await response.json();
if (!response.ok) throw new Error(\`\${data.detail.code}: \${data.detail.message} (request \${data.detail.request_id})\`);
console.log(data);`;
  const { language, ...rest } = fields;
  const python = `${pythonClient(origin, apiKey)}

result = client.transcribe(
    ${JSON.stringify(file)},
${kwargs({ language, ...rest }, "    ")}
)
print(json.dumps(result, indent=2, ensure_ascii=False))`;
  return {
    curl,
    js: jsCode,
    python,
    install: { js: null, python: PYTHON_INSTALL },
    tools: openaiTranscriptionSnippets(file, language, origin, apiKey),
  };
}
