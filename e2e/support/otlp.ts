import http from "node:http";
import type { AddressInfo } from "node:net";

/** A span as OTLP/JSON carries it (the fields the tests read). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** service.name of the resource it came with. */
  service: string;
}

/**
 * An OpenTelemetry collector for tests: a node:http server accepting OTLP over HTTP with JSON bodies
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) at /v1/traces and /v1/metrics; it keeps what it received.
 */
export interface OtlpReceiver {
  url: string;
  spans: OtlpSpan[];
  /** The metric names received, with the resource's service.name. */
  metricNames: Set<string>;
  /** "<path> <content type>" of each request received (to see the protocol used). */
  contentTypes: string[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

function attributesOf(list: KeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? "")),
    ]),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver: Omit<OtlpReceiver, "url" | "close"> = { spans: [], metricNames: new Set(), contentTypes: [] };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    receiver.contentTypes.push(`${req.url} ${req.headers["content-type"]}`);
    // Protobuf bodies (the default protocol) are acknowledged and counted, not decoded.
    if (req.headers["content-type"] === "application/x-protobuf") return void res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (req.url === "/v1/traces") {
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)["service.name"]);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              receiver.spans.push({
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                name: s.name,
                kind: s.kind,
                attributes: attributesOf(s.attributes),
                service,
              });
        }
      } else if (req.url === "/v1/metrics") {
        for (const rm of body.resourceMetrics ?? [])
          for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) receiver.metricNames.add(m.name);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    } catch {
      res.writeHead(400).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
