import { describe, expect, it } from "vitest";
import { buildSnippets, PYTHON_INSTALL, pythonLiteral } from "./snippets";

const KEY = `svc_${"a".repeat(40)}`;
const ORIGIN = "https://lugha.example";

describe("View code snippets", () => {
  it("Python literals: True, False, None, nested lists and dicts", () => {
    expect(pythonLiteral({ a: true, b: [false, null, 1, "x"] })).toBe(
      '{\n    "a": True,\n    "b": [\n        False,\n        None,\n        1,\n        "x",\n    ],\n}',
    );
  });

  it("translate: curl with the body, fetch, and the Python client's translate() with keyword arguments", () => {
    const s = buildSnippets({ kind: "json", path: "/api/v1/translate", body: { text: "It's", target_lang: "lug" } }, ORIGIN, KEY);
    expect(s.curl).toContain(`-d '{"text":"It'\\''s","target_lang":"lug"}'`);
    expect(s.js).toContain(`await fetch("${ORIGIN}/api/v1/translate"`);
    expect(s.js).not.toContain("@lugha/client");
    expect(s.python).toContain(`client = lugha.Client("${KEY}", base_url="${ORIGIN}")`);
    expect(s.python).toContain('client.translate(\n    text="It\'s",\n    target_lang="lug",\n)');
    expect(s.install.python).toBe(PYTHON_INSTALL);
  });

  it("an endpoint the Python client has no method for: the standard library, nothing to install", () => {
    const s = buildSnippets({ kind: "json", path: "/api/v1/catalog/translate", body: { format: "json" } }, ORIGIN, KEY);
    expect(s.python).toContain("urllib.request.Request(");
    expect(s.install.python).toBeNull();
  });

  it("speak: the raw form sends Accept: audio/wav and saves the bytes; the JSON form decodes audio_base64", () => {
    const raw = buildSnippets({ kind: "speak", body: { text: "Hi", language: "lug" }, raw: true }, ORIGIN, KEY);
    expect(raw.curl).toContain('-H "Accept: audio/wav"');
    expect(raw.js).toContain('Accept: "audio/wav"');
    expect(raw.python).toContain('"Accept": "audio/wav"');
    const json = buildSnippets({ kind: "speak", body: { text: "Hi", language: "lug" }, raw: false }, ORIGIN, KEY);
    expect(json.curl).toContain("base64 --decode > speech.wav");
    expect(json.js).toContain('Buffer.from(audio_base64, "base64")');
    expect(json.python).toContain("client.speak(");
  });

  it("speak in another format: Accept names it (raw) or the body does (JSON), and the file written has its extension", () => {
    const raw = buildSnippets({ kind: "speak", body: { text: "Hi", language: "lug" }, raw: true, format: "opus" }, ORIGIN, KEY);
    expect(raw.curl).toContain('-H "Accept: audio/ogg; codecs=opus"');
    expect(raw.curl).toContain("-o speech.ogg");
    expect(raw.js).toContain('Accept: "audio/ogg; codecs=opus"');
    expect(raw.js).toContain('writeFile("speech.ogg"');
    expect(raw.python).toContain('"Accept": "audio/ogg; codecs=opus"');
    expect(raw.python).toContain('open("speech.ogg", "wb")');
    const json = buildSnippets({ kind: "speak", body: { text: "Hi", language: "lug", format: "mp3" }, raw: false, format: "mp3" }, ORIGIN, KEY);
    expect(json.curl).toContain(`-d '{"text":"Hi","language":"lug","format":"mp3"}'`);
    expect(json.curl).toContain("base64 --decode > speech.mp3");
    expect(json.js).toContain('writeFile("speech.mp3"');
    expect(json.python).toContain('client.speak(\n    text="Hi",\n    language="lug",\n    format="mp3",\n)');
    expect(json.python).toContain('open("speech.mp3", "wb")');
    expect(json.install.python).toBe(PYTHON_INSTALL);
  });

  it("transcribe: the file by the name it had, and the fields", () => {
    const s = buildSnippets({ kind: "transcribe", file: "talk.wav", fields: { language: "ach" } }, ORIGIN, KEY);
    expect(s.curl).toContain("-F 'audio=@talk.wav'");
    expect(s.curl).toContain("-F 'language=ach'");
    expect(s.python).toContain('client.transcribe(\n    "talk.wav",\n    language="ach",\n)');
  });

  it("tools for a translation: LibreTranslate and DeepL with ISO 639-1 codes, MCP settings and the MCP SDK with the tab's arguments", () => {
    const body = { text: "Good morning", source_lang: "en", target_lang: "lug" };
    const tools = buildSnippets({ kind: "json", path: "/api/v1/translate", body }, ORIGIN, KEY).tools;
    expect(tools.map((t) => t.label.split(" (")[0])).toEqual(["LibreTranslate", "DeepL API", "MCP clients", "MCP"]);
    expect(tools[0].code).toContain('"target":"lg"');
    expect(tools[1].code).toContain("-d target_lang=LG");
    expect(JSON.parse(tools[2].code)).toEqual({ mcpServers: { lugha: { url: `${ORIGIN}/mcp`, headers: { Authorization: `Bearer ${KEY}` } } } });
    expect(tools[3].code).toContain(`new URL("${ORIGIN}/mcp")`);
    expect(tools[3].code).toContain(`name: "translate",\n  arguments: {\n    "text": "Good morning",`);
    expect(buildSnippets({ kind: "json", path: "/api/v1/detect", body: { text: "Hi" } }, ORIGIN, KEY).tools).toEqual([]);
  });

  it("tools for speech: OpenAI's audio API with the language in the model, the voice chosen or OpenAI's default name, the format's file", () => {
    const [curl, sdk] = buildSnippets({ kind: "speak", body: { text: "Hi", language: "lug" }, raw: true, format: "opus" }, ORIGIN, KEY).tools;
    expect(curl.code).toContain(`curl -sS ${ORIGIN}/compat/openai/v1/audio/speech`);
    expect(curl.code).toContain(`-d '{"model":"lugha-tts-lg","input":"Hi","voice":"alloy","response_format":"opus"}'`);
    expect(curl.code).toContain("-o speech.ogg");
    expect(sdk.code).toContain(`new OpenAI({ baseURL: "${ORIGIN}/compat/openai/v1", apiKey: "${KEY}" })`);
    expect(sdk.code).toContain('writeFile("speech.ogg"');
    const chosen = buildSnippets({ kind: "speak", body: { text: "Hi", language: "ach", voice: "female" }, raw: false }, ORIGIN, KEY).tools;
    expect(chosen[1].code).toContain('"model": "lugha-tts-ach"');
    expect(chosen[1].code).toContain('"voice": "female"');
    expect(chosen[1].code).toContain('"response_format": "wav"');
  });

  it("tools for a transcription: the file as OpenAI's multipart `file`, the language in the model", () => {
    const [curl, sdk] = buildSnippets({ kind: "transcribe", file: "talk.wav", fields: { language: "lug" } }, ORIGIN, KEY).tools;
    expect(curl.code).toContain("-F 'file=@talk.wav'");
    expect(curl.code).toContain("-F model=lugha-stt-lg");
    expect(sdk.code).toContain('file: fs.createReadStream("talk.wav")');
    expect(sdk.code).toContain('model: "lugha-stt-lg"');
  });

  it("every curl, the tools' too, is one command over several lines, each but the last ending in a backslash", () => {
    const requests = [
      { kind: "json", path: "/api/v1/translate", body: { text: "Hi", source_lang: "en", target_lang: "lug", format: "html" } },
      { kind: "speak", body: { text: "Hi", language: "lug" }, raw: true },
      { kind: "transcribe", file: "talk.wav", fields: { language: "lug" } },
    ] as const;
    for (const request of requests) {
      const s = buildSnippets(request, ORIGIN, KEY);
      for (const code of [s.curl, ...s.tools.filter((t) => t.label.endsWith(": curl")).map((t) => t.code)]) {
        const lines = code.split("\n").filter((line) => !line.startsWith("#"));
        expect(lines.length, code).toBeGreaterThan(2);
        for (const line of lines.slice(0, -1)) expect(line, code).toMatch(/ \\$/);
      }
    }
  });
});
