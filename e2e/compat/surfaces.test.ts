import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, mintKey } from "../support/api";
import { COLD_START_MS, type RunningApp, startApp, stopAllApps } from "../support/app";

/**
 * What every compatibility surface shares with the API's own routes: the same rate-limit bucket as its native twin
 * (one text: translate; several: batch), the key's usage and request log, the sandbox marker, and bad input answered in
 * the protocol's own error shape — never a 500, never the input echoed.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({
    env: { RATE_LIMIT_TRANSLATE: "3/60s", RATE_LIMIT_BATCH: "2/60s", RATE_LIMIT_DEFAULT: "1000/60s" },
    readyTimeoutMs: COLD_START_MS,
  });
});
afterAll(stopAllApps);

const libre = (body: unknown) =>
  fetch(`${app.url}/compat/libretranslate/translate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const deeplTranslate = (key: string, body: unknown) =>
  fetch(`${app.url}/compat/deepl/v2/translate`, {
    method: "POST",
    headers: { authorization: `DeepL-Auth-Key ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("rate limits", () => {
  it("one text on either surface spends the translate bucket the native route spends", async () => {
    const key = await mintKey(app.url, "translate bucket");
    const native = { text: "Good morning", source_lang: "en", target_lang: "lug" };
    expect((await call(app.url, "POST", "/api/v1/translate", { key, json: native })).status).toBe(200);
    expect((await libre({ q: "Good morning", source: "en", target: "lg", api_key: key })).status).toBe(200);
    expect((await deeplTranslate(key, { text: ["Good morning"], target_lang: "LG" })).status).toBe(200);
    const lt = await libre({ q: "Good morning", source: "en", target: "lg", api_key: key });
    expect(lt.status).toBe(429);
    expect(lt.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(lt.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Object.keys(await lt.json())).toEqual(["error"]);
    const dl = await deeplTranslate(key, { text: "Good morning", target_lang: "LG" });
    expect(dl.status).toBe(429);
    expect(Object.keys(await dl.json())).toEqual(["message"]);
    expect((await call(app.url, "POST", "/api/v1/translate", { key, json: native })).body.detail.code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("several texts spend the batch bucket, not the translate one", async () => {
    const key = await mintKey(app.url, "batch bucket");
    const items = [{ id: "a", text: "Good morning", source_lang: "en", target_lang: "sw" }];
    expect((await call(app.url, "POST", "/api/v1/translate/batch", { key, json: { items } })).status).toBe(200);
    expect((await libre({ q: ["Good morning", "Thank you"], source: "en", target: "sw", api_key: key })).status).toBe(200);
    expect((await deeplTranslate(key, { text: ["Good morning", "Thank you"], target_lang: "SW" })).status).toBe(429);
    expect((await libre({ q: ["Good morning", "Thank you"], source: "en", target: "sw", api_key: key })).status).toBe(429);
    // The translate bucket is untouched.
    expect((await libre({ q: "Good morning", source: "en", target: "sw", api_key: key })).status).toBe(200);
  });
});

describe("usage, request log and sandbox marker", () => {
  it("every surface's calls show in the key's usage (with their characters) and request log, and carry X-Lugha-Sandbox", async () => {
    const key = await mintKey(app.url, "usage");
    const lt = await libre({ q: "Good morning", source: "en", target: "lg", api_key: key });
    const ltMany = await libre({ q: ["Good morning", "Thank you"], source: "en", target: "sw", api_key: key });
    const dl = await deeplTranslate(key, { text: ["Where is the market?"], target_lang: "YO" });
    for (const res of [lt, ltMany, dl]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("x-lugha-sandbox")).toBe("true");
    }
    const usage = await call(app.url, "GET", "/api/v1/usage?group_by=endpoint", { key });
    expect(usage.status).toBe(200);
    const rows = new Map((usage.body.rows as { endpoint: string; requests: number; characters: number }[]).map((r) => [r.endpoint, r]));
    expect(rows.get("POST /compat/libretranslate/translate")).toMatchObject({
      requests: 2,
      characters: "Good morning".length * 2 + "Thank you".length,
    });
    expect(rows.get("POST /compat/deepl/v2/translate")).toMatchObject({ requests: 1, characters: "Where is the market?".length });
    const log = await call(app.url, "GET", "/api/v1/usage/requests", { key });
    const lines = log.body.requests as { endpoint: string; status: number; provider: string | null; request_id: string }[];
    expect(lines.map((l) => l.endpoint).sort()).toEqual(
      [
        "POST /compat/deepl/v2/translate",
        "POST /compat/libretranslate/translate",
        "POST /compat/libretranslate/translate",
        "GET /api/v1/usage",
      ].sort(),
    );
    const ids = lines.map((l) => l.request_id);
    for (const res of [lt, ltMany, dl]) expect(ids).toContain(res.headers.get("x-request-id"));
    expect(lines.find((l) => l.endpoint === "POST /compat/deepl/v2/translate")?.provider).toBe("provider_b");
  });
});

const MARKER = "EchoCanaryQ7x";

describe("bad input", () => {
  const surfaces = [
    { name: "LibreTranslate", path: "/compat/libretranslate/translate", field: "error", keyInHeader: false },
    { name: "DeepL", path: "/compat/deepl/v2/translate", field: "message", keyInHeader: true },
  ];
  it.each(surfaces)(
    "$name: each bad request gets the protocol's error shape, a 4xx, and no trace of the input",
    async ({ path, field, keyInHeader }) => {
      const key = await mintKey(app.url, "bad input");
      const auth: Record<string, string> = keyInHeader ? { authorization: `DeepL-Auth-Key ${key}` } : {};
      const keyField: Record<string, string> = keyInHeader ? {} : { api_key: key };
      const json = { "content-type": "application/json", ...auth };
      const attempts: [string, RequestInit][] = [
        ["malformed JSON", { body: `{"q": "${MARKER}`, headers: json }],
        ["not an object", { body: JSON.stringify([MARKER]), headers: json }],
        [
          "wrong types",
          { body: JSON.stringify({ ...keyField, q: { [MARKER]: 1 }, text: { [MARKER]: 1 }, target: 7, target_lang: 7 }), headers: json },
        ],
        [
          "unknown target",
          { body: JSON.stringify({ ...keyField, q: "Good morning", text: "Good morning", target: MARKER, target_lang: MARKER }), headers: json },
        ],
        [
          "unknown source",
          {
            body: JSON.stringify({ ...keyField, q: "Hi", text: "Hi", source: MARKER, source_lang: MARKER, target: "sw", target_lang: "SW" }),
            headers: json,
          },
        ],
        [
          "bad format",
          {
            body: JSON.stringify({ ...keyField, q: "Hi", text: "Hi", target: "sw", target_lang: "SW", format: MARKER, tag_handling: MARKER }),
            headers: json,
          },
        ],
        [
          "too many texts",
          {
            body: JSON.stringify({ ...keyField, q: Array(51).fill(MARKER), text: Array(51).fill(MARKER), target: "sw", target_lang: "SW" }),
            headers: json,
          },
        ],
        ["empty text", { body: JSON.stringify({ ...keyField, q: "   ", text: "   ", target: "sw", target_lang: "SW" }), headers: json }],
        ["empty body", { body: "", headers: json }],
        [
          "a key in the wrong form",
          {
            body: JSON.stringify({ api_key: [MARKER], q: "Hi", target: "sw" }),
            headers: { "content-type": "application/json", authorization: `Bearer ${MARKER}` },
          },
        ],
        [
          "an unknown key",
          {
            body: JSON.stringify({ api_key: `svc_${MARKER}`, q: "Hi", target: "sw" }),
            headers: { "content-type": "application/json", authorization: `DeepL-Auth-Key svc_${MARKER}` },
          },
        ],
        ["invalid UTF-8", { body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), headers: json }],
        [
          "a form with wrong fields",
          {
            body: `${new URLSearchParams({ ...keyField, alternatives: MARKER, q: "Hi", target: "sw", text: "Hi", target_lang: "SW", formality: MARKER })}`,
            headers: { "content-type": "application/x-www-form-urlencoded", ...auth },
          },
        ],
      ];
      for (const [what, init] of attempts) {
        const res = await fetch(`${app.url}${path}`, { method: "POST", ...init });
        const text = await res.text();
        expect(res.status, `${what}: ${text}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${what}: ${text}`).toBeLessThan(500);
        const body = JSON.parse(text);
        expect(Object.keys(body), what).toEqual([field]);
        expect(body[field].length, what).toBeGreaterThan(0);
        const answer = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${text}`.toLowerCase();
        expect(answer.includes("echocanary"), `${what}: ${answer}`).toBe(false);
        expect(res.headers.get("x-request-id"), what).toBeTruthy();
      }
    },
  );
});
