import { describe, expect, it } from "vitest";
import { ALL_AVAILABLE } from "@/lib/availability";
import { ApiError } from "@/lib/kit/errors";
import { allPairs } from "@/lib/languages/pairs";
import type { SttResponse } from "@/lib/speech/schemas";
import { protocolCode } from "./codes";
import { DEEPL, deeplLanguages, deeplTranslation, fromDeepl } from "./deepl";
import { LIBRETRANSLATE, LibreTranslateRequest, libreLanguages, libreTranslation } from "./libretranslate";
import { calledTool, MCP, toolEndpoint, unknownTool } from "./mcp";
import { OPENAI, openaiModels, requestLanguage, transcriptionReply } from "./openai";

const request = (headers: Record<string, string>) => new Request("http://x/", { headers });

describe("language codes on the other protocols", () => {
  it("shows ISO 639-1 where a language has one, else ISO 639-3; reads both and DeepL's regional codes", () => {
    expect(["lug", "sw", "yo", "ach", "nyn", "en", "de"].map(protocolCode)).toEqual(["lg", "sw", "yo", "ach", "nyn", "en", "de"]);
    expect(["LG", "EN-GB", "EN-US", "PT-BR", "ACH", "DE"].map(fromDeepl)).toEqual(["lug", "en", "en", "pt", "ach", "de"]);
  });

  it("lists the served pairs: LibreTranslate by source with targets, DeepL's targets with EN-GB and EN-US", () => {
    const pairs = allPairs();
    const libre = new Map(libreLanguages(pairs).map((l) => [l.code, l]));
    expect(libre.get("lg")).toMatchObject({ name: "Luganda", targets: expect.arrayContaining(["en", "ach"]) });
    expect(libre.get("de")?.targets).toEqual(["en"]);
    const targets = deeplLanguages(pairs, "target").map((l) => l.language);
    expect(targets).toEqual(expect.arrayContaining(["EN-GB", "EN-US", "LG", "DE"]));
    expect(targets).not.toContain("EN");
    expect(deeplLanguages(pairs, "source").map((l) => l.language)).toContain("EN");
  });
});

describe("the dialects", () => {
  it("take LibreTranslate's key from api_key (empty is none) and DeepL's from DeepL-Auth-Key", () => {
    expect(LIBRETRANSLATE.credential!(request({}), { api_key: "svc_x" })).toBe("svc_x");
    expect(LIBRETRANSLATE.credential!(request({ authorization: "Bearer svc_x" }), { api_key: "" })).toBe(null);
    expect(DEEPL.credential!(request({ authorization: "DeepL-Auth-Key svc_y" }), {})).toBe("svc_y");
    expect(DEEPL.credential!(request({}), {})).toBe(null);
    expect(() => DEEPL.credential!(request({ authorization: "Bearer svc_y" }), {})).toThrow(/DeepL-Auth-Key/);
  });

  it("render each refusal with the protocol's status and body", () => {
    const refusal = (code: "MISSING_API_KEY" | "INVALID_API_KEY" | "VALIDATION_ERROR" | "PROVIDER_ERROR", status: number) => ({
      code,
      status,
      message: "why",
      requestId: "req_1",
    });
    expect(LIBRETRANSLATE.status("MISSING_API_KEY", 401)).toBe(400);
    expect(LIBRETRANSLATE.status("INVALID_API_KEY", 401)).toBe(403);
    expect(LIBRETRANSLATE.status("VALIDATION_ERROR", 422)).toBe(400);
    expect(LIBRETRANSLATE.status("PROVIDER_ERROR", 503)).toBe(500);
    expect(LIBRETRANSLATE.status("RATE_LIMIT_EXCEEDED", 429)).toBe(429);
    expect(LIBRETRANSLATE.errorBody(refusal("INVALID_API_KEY", 401))).toEqual({ error: "Invalid API key" });
    expect(DEEPL.status("MISSING_API_KEY", 401)).toBe(403);
    expect(DEEPL.status("UNSUPPORTED_LANGUAGE", 422)).toBe(400);
    expect(DEEPL.status("PROVIDER_ERROR", 503)).toBe(503);
    expect(DEEPL.errorBody(refusal("VALIDATION_ERROR", 422))).toEqual({ message: "why" });
  });
});

describe("requests as the API's own", () => {
  it("LibreTranslate: auto is a detected source; an array stays an array", () => {
    const one = LibreTranslateRequest.parse({ q: "hi", source: "auto", target: "lg" });
    expect(libreTranslation(one)).toEqual({ texts: "hi", target: "lg", source: undefined, format: "text" });
    const many = LibreTranslateRequest.parse({ q: ["a", "b"], source: "en", target: "sw", format: "html", alternatives: "2" });
    expect(libreTranslation(many)).toEqual({ texts: ["a", "b"], target: "sw", source: "en", format: "html" });
  });

  it("DeepL: tag handling is html format; formality more/less is refused, the prefer_ forms are not", () => {
    expect(deeplTranslation({ text: ["a"], target_lang: "EN-GB", tag_handling: "xml", formality: "prefer_more" })).toMatchObject({
      texts: ["a"],
      target: "en",
      format: "html",
    });
    expect(() => deeplTranslation({ text: "a", target_lang: "SW", formality: "more" })).toThrow(/formality/);
  });
});

describe("OpenAI's audio", () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ApiError) return { code: err.code, param: err.options.errors?.[0]?.loc[1] };
      throw err;
    }
    return undefined;
  };

  it("takes the language from the field or the model name; neither, or two that disagree, is refused on language", () => {
    expect(requestLanguage("lugha-stt", "lg", "stt")).toBe("lg");
    expect(requestLanguage("lugha-tts-lg", undefined, "tts")).toBe("lug");
    expect(requestLanguage("LUGHA-TTS-LUG", "lg", "tts")).toBe("lg");
    expect(refusal(() => requestLanguage("lugha-stt", " ", "stt"))).toEqual({ code: "VALIDATION_ERROR", param: "language" });
    expect(refusal(() => requestLanguage("lugha-stt-lg", "sw", "stt"))).toEqual({ code: "VALIDATION_ERROR", param: "language" });
    expect(refusal(() => requestLanguage("lugha-tts-lg", undefined, "stt"))).toEqual({ code: "VALIDATION_ERROR", param: "model" });
    expect(refusal(() => requestLanguage("whisper-1", "sw", "stt"))).toEqual({ code: "VALIDATION_ERROR", param: "model" });
    expect(refusal(() => requestLanguage("lugha-tts-xx", undefined, "tts"))).toEqual({ code: "UNSUPPORTED_LANGUAGE", param: "model" });
  });

  it("lists the two generic models, then one per language and direction, in the protocols' codes", () => {
    const ids = openaiModels(ALL_AVAILABLE).data.map((m) => m.id);
    expect(ids.slice(0, 2)).toEqual(["lugha-stt", "lugha-tts"]);
    expect(ids).toEqual(expect.arrayContaining(["lugha-stt-lg", "lugha-tts-lg"]));
    expect(ids).not.toContain("lugha-tts-lug");
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("writes refusals as {error: {message, type, param, code}}: the key 401, the rest 400, with OpenAI's field names", () => {
    expect(OPENAI.credential!(request({ authorization: "Bearer svc_x" }), {})).toBe("svc_x");
    expect(OPENAI.credential!(request({}), {})).toBe(null);
    expect(() => OPENAI.credential!(request({ authorization: "Basic abc" }), {})).toThrow(ApiError);
    expect(OPENAI.status("INVALID_API_KEY", 401)).toBe(401);
    expect(OPENAI.status("UNSUPPORTED_LANGUAGE", 422)).toBe(400);
    expect(OPENAI.status("UNSUPPORTED_MEDIA_TYPE", 415)).toBe(400);
    expect(OPENAI.status("PROVIDER_ERROR", 503)).toBe(503);
    const tooLong = { code: "TEXT_TOO_LONG" as const, status: 422, message: "text is 2,001 characters.", requestId: "r" };
    expect(OPENAI.errorBody({ ...tooLong, errors: [{ loc: ["body", "text"], msg: "m", type: "t" }] })).toEqual({
      error: { message: "input is 2,001 characters.", type: "invalid_request_error", param: "input", code: "text_too_long" },
    });
    expect(OPENAI.errorBody({ code: "RATE_LIMIT_EXCEEDED", status: 429, message: "Slow down.", requestId: "r" })).toEqual({
      error: { message: "Slow down.", type: "requests", param: null, code: "rate_limit_exceeded" },
    });
    expect(OPENAI.errorBody({ code: "INTERNAL_ERROR", status: 500, message: "Oops.", requestId: "r" })).toMatchObject({
      error: { type: "server_error" },
    });
  });

  it("writes transcripts as SubRip and WebVTT cues, one per segment, that no line of the text can break", async () => {
    const result = {
      transcript: "one two",
      segments: [
        { start: 0, end: 1.5, text: "one\n\n-->" },
        { start: 61.25, end: 3723.004, text: "two" },
      ],
      audio_duration_seconds: 3723.004,
      language: "lug",
    } as SttResponse;
    const srt = await (transcriptionReply("srt", result) as Response).text();
    expect(srt).toBe("1\n00:00:00,000 --> 00:00:01,500\none\n->\n\n2\n00:01:01,250 --> 01:02:03,004\ntwo\n\n");
    const vtt = transcriptionReply("vtt", result) as Response;
    expect(vtt.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(await vtt.text()).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:01.500\none\n->\n\n00:01:01.250 --> 01:02:03.004\ntwo\n\n");
    expect(transcriptionReply("verbose_json", { ...result, segments: null })).toMatchObject({
      language: "luganda",
      segments: [{ id: 0, start: 0, end: 3723.004, text: "one two" }],
    });
  });
});

describe("MCP", () => {
  it("names the tool a tools/call calls, only when it is one of the tools", () => {
    expect(calledTool({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "speak", arguments: {} } })).toBe("speak");
    expect(calledTool({ method: "tools/call", params: { name: "toString" } })).toBeUndefined();
    expect(calledTool({ method: "tools/call", params: { name: ["translate"] } })).toBeUndefined();
    expect(calledTool({ method: "tools/list", params: { name: "translate" } })).toBeUndefined();
    expect(toolEndpoint("translate_batch")).toBe("POST /mcp translate_batch");
  });

  it("answers an unknown tool with invalid params listing the tools, never the name sent; refusals as JSON-RPC errors", () => {
    const answer = unknownTool({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "EchoCanary" } });
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });
    expect(answer.error.message).toContain("detect_language");
    expect(JSON.stringify(answer)).not.toContain("EchoCanary");
    expect(MCP.credential).toBeUndefined(); // the API's own Bearer header
    expect(MCP.status("MISSING_API_KEY", 401)).toBe(401);
    expect(MCP.errorBody({ code: "INVALID_JSON", status: 400, message: "Not JSON.", requestId: "req_1" })).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Not JSON.", data: { code: "INVALID_JSON", request_id: "req_1" } },
    });
  });
});
