#!/usr/bin/env node
import { readFileSync } from "node:fs";
/**
 * The benchmark's baseline: a bare Node HTTP proxy that does the least work that can answer the same requests —
 * no authentication, no rate limit, no database, no validation beyond JSON.parse, no Next.js. It forwards each
 * translation to the same upstream emulator the app calls (Sunbird's wire format, POST /tasks/translate) with the same
 * HTTP client (global fetch / undici) and returns a response of the same shape and similar size. A batch fans out one
 * upstream call per item with the same per-request concurrency bound as the app (BATCH_CONCURRENCY_PER_PROVIDER,
 * default 8), so the batch ratio measures overhead rather than a different concurrency policy. GET /api/v1/languages
 * answers a fixed body (the app's own response, captured once) — there is no upstream for it.
 *
 *   node bench/baseline-proxy.mjs --port 4100 --upstream http://127.0.0.1:4001 [--languages-file f.json]
 *
 * Prints one JSON line {"url"} when listening.
 */
import http from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    upstream: { type: "string" },
    "languages-file": { type: "string" },
    "batch-concurrency": { type: "string", default: process.env.BATCH_CONCURRENCY_PER_PROVIDER ?? "8" },
  },
});
if (!values.upstream) throw new Error("--upstream is required");
const upstream = values.upstream.replace(/\/+$/, "");
const languagesBody = values["languages-file"] ? readFileSync(values["languages-file"]) : Buffer.from('{"languages":[],"total":0}');
const batchConcurrency = Number(values["batch-concurrency"]);

const ISO3 = { en: "eng", lug: "lug", ach: "ach", teo: "teo", nyn: "nyn", lgg: "lgg", sw: "swa" };
const iso3 = (c) => ISO3[c] ?? c;

async function translateOne(text, source, target) {
  const started = performance.now();
  const res = await fetch(`${upstream}/tasks/translate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ source_language: iso3(source), target_language: iso3(target), text }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`upstream ${res.status}`);
  return {
    translated_text: body.output?.translated_text ?? body.output?.text,
    detected_source_lang: source,
    target_lang: target,
    model_used: "provider_a/sunflower",
    provider: "provider_a",
    quality_score: 0.92,
    latency_ms: Math.round(performance.now() - started),
    characters_translated: text.length,
  };
}

async function mapBounded(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = { id: items[i].id, ...(await fn(items[i])), error: null };
      } catch (err) {
        out[i] = { id: items[i].id, translated_text: null, error: String(err.message) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function send(res, status, body) {
  const data = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

const server = http.createServer(async (req, res) => {
  try {
    if (req.method === "GET" && req.url?.startsWith("/api/v1/languages")) return send(res, 200, languagesBody);
    if (req.method !== "POST") return send(res, 404, { error: "not found" });
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (req.url === "/api/v1/translate") {
      return send(res, 200, await translateOne(body.text, body.source_lang ?? "en", body.target_lang));
    }
    if (req.url === "/api/v1/translate/batch") {
      const started = performance.now();
      const results = await mapBounded(body.items, batchConcurrency, (it) => translateOne(it.text, it.source_lang ?? "en", it.target_lang));
      const failed = results.filter((r) => r.error).length;
      return send(res, 200, {
        results,
        total: results.length,
        succeeded: results.length - failed,
        failed,
        total_latency_ms: Math.round(performance.now() - started),
      });
    }
    return send(res, 404, { error: "not found" });
  } catch (err) {
    send(res, 502, { error: String(err?.message ?? err) });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(values.port), "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
