import { type Meter, metrics } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  MeterProvider,
  type MetricReader,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import type { Config } from "@/lib/config";
import { installInstruments } from "@/lib/kit/telemetry";
import type { Registry } from "@/lib/providers";
import packageJson from "@/package.json";

/**
 * The metrics of the process (OpenTelemetry): one meter provider with two readers — the Prometheus reader behind
 * GET /metrics (always), and an OTLP exporter every 60 s when OTEL_EXPORTER_OTLP_ENDPOINT is set. Traces are
 * registered by the start-up (instrumentation.ts → registerTracing); metrics are built here, with the services, because
 * their gauges read the services (circuits, budgets, the usage buffer) and the start-up hook has its own copies of the
 * modules (lib/server/index.ts).
 */
export interface Metrics {
  meter: Meter;
  /** The current values in the Prometheus text format (0.0.4). */
  prometheus(): Promise<string>;
}

/** What the observable gauges read. */
export interface MetricSources {
  providers: Registry;
  budgets: { snapshot(): { provider: string; windows: { remaining: number; window_seconds: number }[] }[] };
  usagePendingAgeMs(): number;
}

const CIRCUIT_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

export function resourceOf(c: Pick<Config, "OTEL_SERVICE_NAME">) {
  return resourceFromAttributes({ "service.name": c.OTEL_SERVICE_NAME ?? "lugha", "service.version": packageJson.version });
}

export function buildMetrics(c: Config, sources: MetricSources): Metrics {
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: MetricReader[] = [prometheus];
  if (c.OTEL_EXPORTER_OTLP_ENDPOINT) readers.push(otlpMetricReader(c));
  const provider = new MeterProvider({ resource: resourceOf(c), readers });
  // Also the global one, for libraries that report through the API.
  metrics.setGlobalMeterProvider(provider);
  const meter = provider.getMeter("lugha", packageJson.version);
  installInstruments(meter);

  meter
    .createObservableGauge("lugha.circuit.state", { description: "Circuit breaker state per provider: 0 closed, 1 half open, 2 open." })
    .addCallback((result) => {
      for (const client of Object.values(sources.providers.clients))
        result.observe(CIRCUIT_VALUE[client.circuitState], { "lugha.provider": client.id });
    });
  meter
    .createObservableGauge("lugha.provider.out_of_credit", {
      description: "1 while the provider refuses this account for spent credit (Hugging Face's 402), else 0.",
    })
    .addCallback((result) => {
      for (const client of Object.values(sources.providers.clients)) result.observe(client.outOfCredit ? 1 : 0, { "lugha.provider": client.id });
    });
  meter
    .createObservableCounter("lugha.circuit.openings", { description: "Circuit openings per provider since the process started." })
    .addCallback((result) => {
      for (const client of Object.values(sources.providers.clients)) result.observe(client.circuit.openingsTotal, { "lugha.provider": client.id });
    });
  meter
    .createObservableGauge("lugha.upstream.budget.remaining", {
      unit: "{request}",
      description: "Requests left in each upstream budget window (UPSTREAM_BUDGET_*), as last seen.",
    })
    .addCallback((result) => {
      for (const { provider, windows } of sources.budgets.snapshot())
        for (const w of windows) result.observe(w.remaining, { "lugha.provider": provider, "lugha.budget.window_seconds": w.window_seconds });
    });
  meter
    .createObservableGauge("lugha.usage.flush.lag", { unit: "s", description: "Age of the oldest usage count not yet written to the database." })
    .addCallback((result) => result.observe(sources.usagePendingAgeMs() / 1000));

  const serializer = new PrometheusSerializer(undefined, false, undefined, true, true);
  return {
    meter,
    async prometheus() {
      const { resourceMetrics } = await prometheus.collect();
      return serializer.serialize(resourceMetrics);
    },
  };
}

/**
 * The OTLP reader, exporting every 60 s. Its exporter (the chosen protocol's only) is imported when the reader is
 * built, not with this module: the OTLP packages are hundreds of modules that every serverless function's first request
 * would otherwise load whether or not an endpoint is set. The first export comes a minute later, long after the import.
 */
export function otlpMetricReader(c: Config): MetricReader {
  const loading: Promise<PushMetricExporter> =
    c.OTEL_EXPORTER_OTLP_PROTOCOL === "http/json"
      ? import("@opentelemetry/exporter-metrics-otlp-http").then((m) => new m.OTLPMetricExporter())
      : import("@opentelemetry/exporter-metrics-otlp-proto").then((m) => new m.OTLPMetricExporter());
  let loaded: PushMetricExporter | undefined;
  loading.then((exporter) => (loaded = exporter)).catch(() => {});
  const exporter: PushMetricExporter = {
    export: (metrics, done) => {
      loading.then(
        (e) => e.export(metrics, done),
        (error: Error) => done({ code: ExportResultCode.FAILED, error }),
      );
    },
    forceFlush: () => loading.then((e) => e.forceFlush()),
    shutdown: () => loading.then((e) => e.shutdown()),
    // The real exporter's choice (OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE), asked at each collection.
    selectAggregationTemporality: (type) => loaded?.selectAggregationTemporality?.(type) ?? AggregationTemporality.CUMULATIVE,
  };
  return new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
}
