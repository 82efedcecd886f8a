import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { Config } from "@/lib/config";
import { markTracingOn } from "@/lib/kit/telemetry";
import { resourceOf } from "./telemetry";

/**
 * Registers OpenTelemetry tracing for the process, from the standard variables only: nothing at all unless
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (no provider, no context manager: the API's no-op tracer, and the app's own span
 * helpers skip even that). Called by the start-up hook (instrumentation.ts), where Next.js wants it; what it registers
 * is global (the OpenTelemetry API keeps it on globalThis), so the routes' copies of the modules see it.
 * Next.js then adds its own request spans, and the app's spans (lib/kit/telemetry.ts) are their children.
 * The start-up imports this module only when the endpoint is set, and only the exporter of the chosen protocol is
 * loaded: the OpenTelemetry SDK is hundreds of modules, and every serverless function's first request would pay for them.
 */
export async function registerTracing(c: Config): Promise<boolean> {
  if (!c.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  const exporter =
    c.OTEL_EXPORTER_OTLP_PROTOCOL === "http/json"
      ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter()
      : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
  const provider = new TracerProvider({
    resource: resourceOf(c),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  markTracingOn();
  return true;
}
