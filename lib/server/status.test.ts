import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { processLog } from "@/lib/kit/log";
import { ProviderError } from "@/lib/providers";
import { buildServices } from "./index";
import { statusReport } from "./status";

describe("statusReport (the /status page)", () => {
  it("lists each provider's circuit and mode, the sandbox flag, and circuit openings newest first, without URLs", async () => {
    const s = buildServices(loadConfig({ PROVIDER_MODE: "sandbox", DATABASE_URL: "pglite:memory", CIRCUIT_FAILURE_THRESHOLD: "2" }));
    const warnings: unknown[] = [];
    const log = processLog();
    const warn = log.warn;
    log.warn = ((fields: unknown) => void warnings.push(fields)) as typeof log.warn;
    try {
      const circuit = s.providers.clients.provider_b.circuit;
      for (let i = 0; i < 2; i++) await circuit.run(() => Promise.reject(new ProviderError("provider_b", "unavailable", "x"))).catch(() => {});
    } finally {
      log.warn = warn;
    }
    const report = statusReport(s);
    expect(report.sandbox).toBe(true);
    expect(report.providers.map((p) => [p.id, p.mode, p.circuit])).toEqual([
      ["provider_a", "sandbox", "closed"],
      ["provider_b", "sandbox", "open"],
      ["provider_c", "sandbox", "closed"],
    ]);
    expect(report.incidents).toEqual([{ provider: "provider_b", name: "GhanaNLP Khaya", at: expect.any(String), reason: "failures" }]);
    expect(warnings).toEqual([expect.objectContaining({ event: "circuit_open", provider: "provider_b", reason: "failures" })]);
    expect(JSON.stringify(report)).not.toMatch(/sandbox\.invalid|http/);
  });
});
