import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll, describe, expect, it } from "vitest";
import { startOtlpReceiver } from "@/e2e/support/otlp";
import { type Config, config } from "@/lib/config";
import { otlpMetricReader } from "./telemetry";

/**
 * The OTLP metrics reader loads its exporter when it is built rather than with the module (so that a process without
 * an endpoint never loads the OTLP packages): what it exports must still reach the collector, in the chosen protocol.
 */
describe("OTLP metrics, the exporter loaded on demand", async () => {
  const receiver = await startOtlpReceiver();
  // The exporters read their endpoint from the standard variable, as in the running app.
  const before = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  afterAll(async () => {
    if (before === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = before;
    await receiver.close();
  });

  it.each(["http/json", "http/protobuf"] as const)("%s: a counter reaches the collector on flush", async (protocol) => {
    const settings: Config = { ...config(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol };
    const reader = otlpMetricReader(settings);
    const provider = new MeterProvider({ readers: [reader] });
    provider
      .getMeter("test")
      .createCounter(`lugha.test.${protocol.replace("/", "_")}`)
      .add(3);
    await provider.forceFlush();
    await provider.shutdown();
    const type = protocol === "http/json" ? "application/json" : "application/x-protobuf";
    expect(receiver.contentTypes).toContain(`/v1/metrics ${type}`);
    if (protocol === "http/json") expect(receiver.metricNames.has("lugha.test.http_json")).toBe(true);
  });
});
