/**
 * What each part of the operator's view costs on its own (docs/benchmark.md "Operations"): one call at a time in a loop
 * of 200,000 after 20,000 of warm-up, in this process.
 *
 *   npx tsx bench/operations-parts.ts
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import pino from "pino";
import { inSpan, installInstruments, markTracingOn, withRequestFacts } from "@/lib/kit/telemetry";

const N = 200_000;

async function time(name: string, fn: () => unknown) {
  for (let i = 0; i < 20_000; i++) await fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await fn();
  console.log(`| ${name} | ${(Number(process.hrtime.bigint() - t0) / N / 1000).toFixed(2)} µs |`);
}

async function main() {
  // The access line as lib/api/route.ts writes it, to /dev/null with the same synchronous destination.
  const log = pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true }));
  const line = {
    event: "request",
    request_id: "req_0123456789abcdef01234567",
    method: "POST",
    route: "/api/v1/translate",
    status: 200,
    duration_ms: 12.3,
    key_id: "2a710c41-92e4-475f-b810-b62d862f7f3c",
    provider: "provider_a",
    model: "provider_a/sunflower",
    fallback: false,
    cache: "miss",
    upstream_attempts: 1,
    upstream_bytes: 321,
  };
  console.log("| part | per call |\n|---|---:|");
  await time("an empty async function (the loop itself)", async () => 1);
  await time("the access line", () => log.info(line, "request"));
  await time("the request's facts (AsyncLocalStorage.run)", () =>
    withRequestFacts({ upstreamAttempts: 0, upstreamBytes: 0, upstreamCalls: {} }, async () => 1),
  );
  await time("inSpan, no exporter", () => inSpan("x", { a: 1 }, async () => 1));
  const instruments = installInstruments(new MeterProvider({}).getMeter("bench"));
  const attributes = { "http.request.method": "POST", "http.route": "/api/v1/translate", "http.response.status_code": 200 };
  await time("a histogram sample, three attributes", () => instruments.serverDuration.record(0.01, attributes));
  const discard: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: discard })] }));
  markTracingOn();
  await time("inSpan with an exporter (batch processor, discarding exporter)", () => inSpan("x", { a: 1 }, async () => 1));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
