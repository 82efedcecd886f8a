import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { type EmulatorServer, makeWav } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { OPERATOR_HEADERS, startApp, stopAllApps } from "../support/app";
import { startLiveEmulators } from "../support/emulators";
import { waitFor } from "../support/net";
import { startOtlpReceiver } from "../support/otlp";

/*
 * What an operator gets (docs/operations.md), over HTTP against the built app: liveness and readiness, one JSON access
 * line per request that never carries a key, a text, audio or a glossary term, traces to an OTLP collector with the
 * upstream attempt as a child span and its traceparent sent upstream, and the metrics at GET /metrics.
 */
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await stopAllApps();
  await Promise.all(closers.map((close) => close()));
});

/** The JSON lines of a server's output. */
function jsonLines(output: string): Record<string, unknown>[] {
  return output.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/** A loopback proxy in front of `target` that keeps each request's traceparent header. */
async function recordingProxy(target: string): Promise<{ url: string; traceparents: (string | undefined)[] }> {
  const traceparents: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    traceparents.push(req.headers.traceparent as string | undefined);
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, traceparents };
}

async function liveEmulators() {
  const { emulators, env } = await startLiveEmulators();
  closers.push(() => Promise.all(emulators.map((e: EmulatorServer) => e.close())).then(() => undefined));
  return env;
}

describe("liveness and readiness", () => {
  it("GET /health/live and /health/ready answer 200; /health keeps its contract", async () => {
    const app = await startApp();
    const live = await call(app.url, "GET", "/health/live");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "ok" });
    expect(live.headers.get("x-request-id")).toBeTruthy();
    const ready = await call(app.url, "GET", "/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", checks: { database: "ok", shared_store: "ok" } });
    expect((await call(app.url, "GET", "/health")).body.status).toBe("ok");
  });

  it("ready is 503 while the shared store does not answer; live stays 200", async () => {
    // A Redis URL nothing listens on, fail-open: requests are still served, but the instance is not ready.
    const app = await startApp({ env: { REDIS_URL: "redis://127.0.0.1:9", RATE_LIMIT_TIMEOUT_MS: "200" }, waitUntilHealthy: false });
    const ready = await call(app.url, "GET", "/health/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: "not_ready", checks: { database: "ok", shared_store: "down" } });
    expect((await call(app.url, "GET", "/health/live")).status).toBe(200);
  });
});

describe("the log", () => {
  it("one JSON access line per request, with its id, route, status and duration; never a key, a text, audio or a glossary term", async () => {
    const app = await startApp({ env: { ...(await liveEmulators()), LOG_LEVEL: "info" } });
    const key = await mintKey(app.url, "log-marker-key-name");
    const MARK = "zqxjmarker";
    const text = `${MARK}text Good morning, the blood pressure clinic opens at nine.`;
    const term = `${MARK}term`;
    const glossary = await call(app.url, "POST", "/api/v1/glossaries", {
      key,
      json: { name: "clinic", source_lang: "en", target_lang: "lug", entries: [{ source: "blood pressure", target: term }] },
    });
    expect(glossary.status).toBe(201);
    const translated = await call(app.url, "POST", "/api/v1/translate", {
      key,
      json: { text, source_lang: "en", target_lang: "lug", glossary_id: glossary.body.id },
      headers: { "x-request-id": "ops-log-translate-1" },
    });
    expect(translated.status).toBe(200);
    const batch = await call(app.url, "POST", "/api/v1/translate/batch", {
      key,
      json: {
        items: [
          { id: "1", text: `${MARK}batch one`, source_lang: "en", target_lang: "lug" },
          { id: "2", text: `${MARK}batch two`, source_lang: "en", target_lang: "lug" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    const tts = await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: `${MARK}speech Oli otya`, language: "lug" } });
    expect(tts.status).toBe(200);
    const wav = makeWav({ durationSeconds: 0.5, seed: 7 });
    const form = new FormData();
    form.set("audio", new Blob([wav as Uint8Array<ArrayBuffer>], { type: "audio/wav" }), `${MARK}clip.wav`);
    form.set("language", "lug");
    const stt = await call(app.url, "POST", "/api/v1/speech/stt", { key, body: form });
    expect(stt.status).toBe(200);
    // Refusals too: a wrong key that looks like one, a text the API refuses, a body that is not JSON.
    const wrongKey = `svc_${"a".repeat(40)}`;
    expectEnvelope(await call(app.url, "POST", "/api/v1/translate", { key: wrongKey, json: { text, target_lang: "lug" } }), 401, "INVALID_API_KEY");
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/translate", { key, json: { text, target_lang: `${MARK}lang` } }),
      422,
      "UNSUPPORTED_LANGUAGE",
    );
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/translate", { key, body: `{"text": "${MARK}broken`, headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );

    // One line per request: the mint, the glossary, the four served and the three refused (read once they all arrived).
    // (The contract checker may fetch /api/v1/openapi.json from this app too: not one of this test's requests.)
    const apiLines = () =>
      jsonLines(app.logs()).filter((l) => l.event === "request" && String(l.route).startsWith("/api/v1/") && l.route !== "/api/v1/openapi.json");
    await waitFor(async () => {
      if (apiLines().length < 9) throw new Error(`${apiLines().length} access lines so far`);
    }, 5_000);
    const output = app.logs();
    for (const secret of [key, key.slice(4), wrongKey, MARK, "blood pressure", "Oli otya", Buffer.from(wav.subarray(44, 76)).toString("base64")])
      expect(output, `the log carries ${secret.slice(0, 12)}…`).not.toContain(secret);

    const lines = jsonLines(output).filter((l) => l.event === "request");
    const line = lines.find((l) => l.request_id === "ops-log-translate-1");
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "POST",
      route: "/api/v1/translate",
      status: 200,
      key_id: expect.any(String),
      provider: translated.body.provider,
      model: translated.body.model_used,
      fallback: false,
      cache: "miss",
      upstream_attempts: 1,
      upstream_bytes: expect.any(Number),
    });
    expect(line!.duration_ms).toBeGreaterThan(0);
    expect(line!.upstream_bytes).toBeGreaterThan(0);
    expect(typeof line!.time).toBe("string");
    expect(apiLines().map((l) => `${l.route} ${l.status}`)).toEqual([
      "/api/v1/auth/keys 200",
      "/api/v1/glossaries 201",
      "/api/v1/translate 200",
      "/api/v1/translate/batch 200",
      "/api/v1/speech/tts 200",
      "/api/v1/speech/stt 200",
      "/api/v1/translate 401",
      "/api/v1/translate 422",
      "/api/v1/translate 400",
    ]);
    expect(lines.filter((l) => l.status === 401)).toHaveLength(1);
  });

  it("LOG_LEVEL=warn drops the access lines", async () => {
    const app = await startApp({ env: { LOG_LEVEL: "warn" } });
    await call(app.url, "GET", "/health/live", { headers: { "x-request-id": "ops-quiet-1" } });
    expect(app.logs()).not.toContain("ops-quiet-1");
  });
});

describe("traces and metrics", () => {
  it("with an OTLP endpoint (http/json): the request span, a child span per upstream attempt, traceparent upstream; /metrics counts both", async () => {
    const receiver = await startOtlpReceiver();
    closers.push(receiver.close);
    const env = await liveEmulators();
    const proxy = await recordingProxy(env.SUNBIRD_API_URL);
    const app = await startApp({
      env: {
        ...env,
        SUNBIRD_API_URL: proxy.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "lugha-test",
      },
    });
    const key = await mintKey(app.url);
    const res = await call(app.url, "POST", "/api/v1/translate", {
      key,
      json: { text: "Good morning", source_lang: "en", target_lang: "lug", provider: "provider_a" },
      headers: { "x-request-id": "ops-trace-1" },
    });
    expect(res.status).toBe(200);

    let request: (typeof receiver.spans)[number] | undefined;
    await waitFor(async () => {
      request = receiver.spans.find((s) => s.attributes["lugha.request_id"] === "ops-trace-1");
      if (!request) throw new Error("no request span yet");
    }, 15_000);
    expect(request).toMatchObject({ name: "POST /api/v1/translate", service: "lugha-test" });
    expect(request!.attributes).toMatchObject({ "http.route": "/api/v1/translate", "http.response.status_code": 200 });
    const upstream = receiver.spans.filter((s) => s.traceId === request!.traceId && s.name === "upstream provider_a");
    expect(upstream).toHaveLength(1);
    expect(upstream[0].parentSpanId).toBe(request!.spanId);
    expect(upstream[0].kind).toBe(3); // CLIENT
    expect(upstream[0].attributes).toMatchObject({
      "lugha.provider": "provider_a",
      "lugha.model": "sunflower",
      "http.response.status_code": 200,
      "lugha.upstream.retry": 0,
    });
    // The shared store and the cache have their spans in the same trace; the database its own (the key's creation).
    const names = receiver.spans.filter((s) => s.traceId === request!.traceId).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["ratelimit check", "cache get", "cache set"]));
    expect(receiver.spans.some((s) => s.name.startsWith("db ") && s.attributes["db.system.name"] === "postgresql")).toBe(true);
    // The provider received the same trace, with the attempt's span as the parent.
    expect(proxy.traceparents.at(-1)).toBe(`00-${request!.traceId}-${upstream[0].spanId}-01`);
    expect(receiver.contentTypes.every((t) => t.endsWith("application/json"))).toBe(true);

    const refused = await call(app.url, "GET", "/metrics");
    expectEnvelope(refused, 401, "MISSING_API_KEY");
    expectEnvelope(await call(app.url, "GET", "/metrics", { headers: { authorization: "Bearer wrong-operator-token" } }), 401, "INVALID_API_KEY");
    const metrics = await call(app.url, "GET", "/metrics", { headers: OPERATOR_HEADERS });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = metrics.text;
    expect(text).toMatch(
      /http_server_request_duration_count\{[^}]*http_request_method="POST"[^}]*http_route="\/api\/v1\/translate"[^}]*http_response_status_code="200"[^}]*\} 1\b/,
    );
    expect(text).toMatch(/http_client_request_duration_count\{[^}]*lugha_provider="provider_a"[^}]*lugha_model="sunflower"[^}]*\} 1\b/);
    expect(text).toMatch(/lugha_circuit_state\{[^}]*lugha_provider="provider_a"[^}]*\} 0\b/);
    expect(text).toMatch(/lugha_cache_lookups_total\{[^}]*lugha_cache_outcome="miss"[^}]*\} 1\b/);
    expect(text).toContain("lugha_usage_flush_lag");
    expect(text).toContain("lugha_upstream_budget_remaining");
    expect(text).not.toContain(key);

    // A text longer than Khaya takes in one call is split: each chunk's attempt names its index.
    const sentence = "The clinic opens at nine in the morning and closes at five in the evening. ";
    const long = await call(app.url, "POST", "/api/v1/translate", {
      key,
      json: { text: sentence.repeat(Math.ceil(2_400 / sentence.length)), source_lang: "en", target_lang: "tw" },
      headers: { "x-request-id": "ops-trace-long" },
    });
    expect(long.status).toBe(200);
    expect(long.body.provider).toBe("provider_b");
    let chunks: number[] = [];
    await waitFor(async () => {
      const root = receiver.spans.find((s) => s.attributes["lugha.request_id"] === "ops-trace-long");
      chunks = receiver.spans
        .filter((s) => s.traceId === root?.traceId && s.name === "upstream provider_b")
        .map((s) => Number(s.attributes["lugha.upstream.chunk"]))
        .sort();
      if (chunks.length < 3) throw new Error("not every chunk's span yet");
    }, 15_000);
    expect(chunks).toEqual([0, 1, 2]);
  });

  it("the default protocol is http/protobuf", async () => {
    const receiver = await startOtlpReceiver();
    closers.push(receiver.close);
    const app = await startApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect((await call(app.url, "GET", "/health/live")).status).toBe(200);
    await waitFor(async () => {
      if (!receiver.contentTypes.includes("/v1/traces application/x-protobuf")) throw new Error(`received ${receiver.contentTypes}`);
    }, 15_000);
  });

  it("without an endpoint no span is made, and /metrics still answers", async () => {
    const app = await startApp();
    const key = await mintKey(app.url);
    expect(
      (await call(app.url, "POST", "/api/v1/translate", { key, json: { text: "Good morning", source_lang: "en", target_lang: "lug" } })).status,
    ).toBe(200);
    const metrics = await call(app.url, "GET", "/metrics", { headers: OPERATOR_HEADERS });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/http_client_request_duration_count\{[^}]*lugha_provider="provider_a"[^}]*\} 1\b/);
  });
});
