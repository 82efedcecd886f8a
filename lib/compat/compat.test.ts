import { describe, expect, it } from "vitest";
import { allPairs } from "@/lib/languages/pairs";
import { protocolCode } from "./codes";
import { DEEPL, deeplLanguages, deeplTranslation, fromDeepl } from "./deepl";
import { LIBRETRANSLATE, LibreTranslateRequest, libreLanguages, libreTranslation } from "./libretranslate";
import { calledTool, MCP, toolEndpoint, unknownTool } from "./mcp";

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
