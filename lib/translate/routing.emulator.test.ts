import { beforeEach, describe, expect, it } from "vitest";
import { apiError } from "@/lib/kit/test-support";
import { HuggingFaceClient, KhayaClient, SunbirdClient } from "@/lib/providers";
import { hostileTranslation } from "@/lib/providers/sandbox";
import type { ProviderClient, ProviderId } from "@/lib/providers/types";
import { translateBatch } from "./batch";
import { emulatorServersForFile } from "./emulators.test-support";
import { englishParagraphs } from "./long-text.test-support";
import type { BatchItem } from "./schemas";
import { type TranslateDeps, translateText } from "./service";

/**
 * Routing, fallback and batch against the real provider clients and the sandbox emulators over loopback HTTP — the
 * same code paths as production, with faults injected at the upstream.
 */

const servers = emulatorServersForFile();

beforeEach(() => {
  for (const s of Object.values(servers)) s.reset();
});

/** Fresh clients (fresh circuit breakers) pointed at the emulators. */
function clients(circuit = { failureThreshold: 3, cooldownMs: 60_000 }): Record<ProviderId, ProviderClient> {
  const policy = { attemptTimeoutMs: 1_000, maxRetries: 1, backoffBaseMs: 10, backoffMaxMs: 20 };
  return {
    provider_a: new SunbirdClient({ baseUrl: servers.provider_a.url, policy, circuit }),
    provider_b: new KhayaClient({ baseUrl: servers.provider_b.url, policy, circuit }),
    provider_c: new HuggingFaceClient({ baseUrl: servers.provider_c.url, policy, circuit }),
  };
}

function deps(providers = clients(), deadlineMs = 5_000): TranslateDeps {
  return { providers, deadlineMs };
}

describe("routing against the emulators", () => {
  it("serves each rule's pair from the right upstream, visibly marked as sandbox output", async () => {
    const d = deps();
    const a = await translateText({ text: "Good morning", source_lang: "en", target_lang: "lug" }, d);
    const b = await translateText({ text: "Good morning", source_lang: "en", target_lang: "tw" }, d);
    const c = await translateText({ text: "Good morning", source_lang: "en", target_lang: "sw" }, d);
    expect([a.provider, b.provider, c.provider]).toEqual(["provider_a", "provider_b", "provider_c"]);
    for (const r of [a, b, c]) expect(r.translated_text).toMatch(/^\[sandbox:/);
    expect(servers.provider_a.stats.byPath["/tasks/translate"]).toBe(1);
    expect(servers.provider_b.stats.byPath["/v1/translate"]).toBe(1);
    expect(servers.provider_c.stats.byPath["/hf-inference/models/Helsinki-NLP/opus-mt-en-sw"]).toBe(1);
  });

  it("sends NLLB the FLORES codes and opus-mt-en-mul its >>token<<", async () => {
    const d = deps();
    const r = await translateText({ text: "Habari yako", source_lang: "sw", target_lang: "yo" }, d);
    expect(r.translated_text).toContain("swh_Latn→yor_Latn");
    servers.provider_c.setControls({ failMode: "status", status: 404, pathPrefix: "/hf-inference/models/facebook/" });
    const z = await translateText({ text: "Good morning", source_lang: "en", target_lang: "zu" }, d);
    expect(z.model_used).toBe("provider_c/Helsinki-NLP/opus-mt-en-mul");
    expect(z.translated_text).toContain("en→zul");
  });

  it("falls back to provider_c when provider_a is down, and the provider field says so", async () => {
    servers.provider_a.setControls({ failMode: "status", status: 503 });
    const r = await translateText({ text: "Good morning", source_lang: "en", target_lang: "lug" }, deps());
    expect(r.provider).toBe("provider_c");
    expect(r.fallback_used).toBe(true);
    expect(r.providers_tried).toEqual(["provider_a", "provider_c"]);
  });

  it("falls back when provider_a hangs, within the deadline", async () => {
    servers.provider_a.setControls({ failMode: "hang" });
    const t0 = Date.now();
    const r = await translateText({ text: "Good morning", source_lang: "en", target_lang: "lug" }, deps(clients(), 2_000));
    expect(r.provider).toBe("provider_c");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("falls back when Khaya answers an HTML page with 200", async () => {
    servers.provider_b.setControls({ failMode: "html", status: 200 });
    const r = await translateText({ text: "Good morning", source_lang: "en", target_lang: "yo" }, deps());
    expect(r.provider).toBe("provider_c");
  });

  it("forced provider that fails → 503 PROVIDER_ERROR, and no other upstream is called", async () => {
    servers.provider_b.setControls({ failMode: "reset" });
    const e = await apiError(translateText({ text: "Good morning", source_lang: "en", target_lang: "yo", provider: "provider_b" }, deps()));
    expect(e.code).toBe("PROVIDER_ERROR");
    expect(e.message).toContain("provider_b");
    expect(servers.provider_c.stats.requests).toBe(0);
  });

  it("everything down → 503 naming the providers, without upstream text; milliseconds once the breakers are open", async () => {
    for (const s of Object.values(servers)) s.setControls({ failMode: "status", status: 500 });
    const d = deps(clients({ failureThreshold: 2, cooldownMs: 60_000 }));
    const input = { text: "Good morning", source_lang: "en", target_lang: "lug" };
    for (let i = 0; i < 2; i++) await apiError(translateText(input, d)); // opens provider_a's and provider_c's circuits
    const before = servers.provider_a.stats.requests + servers.provider_c.stats.requests;
    const t0 = performance.now();
    const e = await apiError(translateText(input, d));
    const ms = performance.now() - t0;
    expect(e.code).toBe("PROVIDER_ERROR");
    expect(e.message).toMatch(/provider_a \(circuit_open/);
    expect(e.message).toMatch(/provider_c \(circuit_open/);
    expect(e.message).not.toMatch(/Internal server error|SYSTEM_ERROR|activityId/i);
    expect(ms).toBeLessThan(50);
    expect(servers.provider_a.stats.requests + servers.provider_c.stats.requests).toBe(before);
  });
});

describe("batch against the emulators", () => {
  const items = (n: number, target = "sw"): BatchItem[] =>
    Array.from({ length: n }, (_, i) => ({ id: `item-${i}`, text: `Sentence number ${i}`, source_lang: "en", target_lang: target }));

  it("unpacked, 50 items at 200 ms upstream latency finish far below 50 × 200 ms, with at most 8 calls in flight per provider", async () => {
    servers.provider_c.setControls({ latencyMs: 200 });
    const t0 = performance.now();
    const r = await translateBatch(items(50), undefined, deps(), { concurrencyPerProvider: 8, packing: false });
    const ms = performance.now() - t0;
    expect(r.succeeded).toBe(50);
    expect(ms).toBeLessThan(2_500); // 7 waves of 200 ms ≈ 1.4 s; sequential would be 10 s
    expect(servers.provider_c.stats.maxInFlight).toBeLessThanOrEqual(8);
    expect(servers.provider_c.stats.maxInFlight).toBeGreaterThanOrEqual(6);
    expect(r.results.map((x) => x.id)).toEqual(items(50).map((x) => x.id));
  });

  it("the bound is per provider: a batch spread over providers runs them side by side", async () => {
    for (const s of Object.values(servers)) s.setControls({ latencyMs: 150 });
    const mixed = [...items(6, "lug"), ...items(6, "tw"), ...items(6, "sw")].map((x, i) => ({ ...x, id: `m${i}` }));
    const t0 = performance.now();
    const r = await translateBatch(mixed, undefined, deps(), { concurrencyPerProvider: 3 });
    expect(r.succeeded).toBe(18);
    expect(performance.now() - t0).toBeLessThan(1_000); // 2 waves per provider in parallel ≈ 300 ms
    for (const s of Object.values(servers)) expect(s.stats.maxInFlight).toBeLessThanOrEqual(3);
  });

  it("mixed success and failure: per-item errors with codes, null fields, input order, counts", async () => {
    servers.provider_b.setControls({ failMode: "status", status: 500 });
    const batch: BatchItem[] = [
      { id: "ok", text: "Good morning", source_lang: "en", target_lang: "lug" },
      { id: "bad-lang", text: "Good morning", source_lang: "en", target_lang: "xx" },
      { id: "same", text: "Good morning", source_lang: "en", target_lang: "eng" },
      { id: "blank", text: "   ", source_lang: "en", target_lang: "lug" },
      { id: "down", text: "Good morning", source_lang: "en", target_lang: "dag" },
      { id: "fallback", text: "Good morning", source_lang: "en", target_lang: "yo" },
      { id: "pair", text: "Apwoyo", source_lang: "ach", target_lang: "yo" },
    ];
    const r = await translateBatch(batch, undefined, deps());
    expect(r.results.map((x) => x.id)).toEqual(batch.map((x) => x.id));
    const byId = Object.fromEntries(r.results.map((x) => [x.id, x]));
    expect(byId.ok).toMatchObject({ provider: "provider_a", error: null, error_code: null });
    expect(byId["bad-lang"]).toMatchObject({
      error_code: "UNSUPPORTED_LANGUAGE",
      translated_text: null,
      provider: null,
      quality_score: null,
      target_lang: null,
    });
    expect(byId.same.error_code).toBe("SAME_LANGUAGE");
    expect(byId.blank.error_code).toBe("VALIDATION_ERROR");
    expect(byId.down).toMatchObject({ error_code: "PROVIDER_ERROR", translated_text: null }); // en→dag: only provider_b serves it
    expect(byId.fallback).toMatchObject({ provider: "provider_c", fallback_used: true });
    expect(byId.pair.error_code).toBe("UNSUPPORTED_LANGUAGE_PAIR");
    // Never reflected: the message names the field and where the accepted codes are listed, not what was sent.
    expect(byId["bad-lang"]).toMatchObject({ error_code: "UNSUPPORTED_LANGUAGE" });
    expect(byId["bad-lang"].error).toMatch(/^target_lang is not a supported language code\. GET \/api\/v1\/languages/);
    expect(r.total).toBe(7);
    expect(r.succeeded + r.failed).toBe(7);
    expect(r.succeeded).toBe(r.results.filter((x) => x.error === null).length);
  });

  it("applies the request's provider override to every item, each failing on its own", async () => {
    const r = await translateBatch(
      [
        { id: "1", text: "Good morning", source_lang: "en", target_lang: "lug" },
        { id: "2", text: "Good morning", source_lang: "en", target_lang: "tw" },
      ],
      "provider_a",
      deps(),
    );
    expect(r.results[0]).toMatchObject({ provider: "provider_a", error: null });
    expect(r.results[1]).toMatchObject({ error_code: "PROVIDER_UNSUPPORTED_PAIR" });
  });
});

describe("long texts against the emulators", () => {
  const text = englishParagraphs(4_800);
  const khayaMark = /\[sandbox:khaya [a-z]+-[a-z]+\] /g;

  it("4,800 characters en→tw: provider_b serves in ≥ 5 calls, none over its 1,000 characters, paragraph breaks kept", async () => {
    const t0 = performance.now();
    const r = await translateText({ text, source_lang: "en", target_lang: "tw" }, deps());
    const ms = performance.now() - t0;
    expect(r).toMatchObject({ provider: "provider_b", model_used: "provider_b/khaya-v1", fallback_used: false });
    const { calls, maxChars, totalChars } = servers.provider_b.stats.translations;
    console.log(`4,800-character en→tw: ${r.segments} chunks, longest ${maxChars} characters at the emulator, ${Math.round(ms)} ms`);
    expect(r.segments).toBeGreaterThanOrEqual(5);
    expect(calls).toBe(r.segments);
    expect(maxChars).toBeLessThanOrEqual(1_000);
    expect(totalChars).toBeLessThanOrEqual(text.length); // the chunks, without the whitespace at the cuts
    // Every chunk, in order, with the original's whitespace (the hostile emulator changes each word on its own).
    expect(r.translated_text.replace(khayaMark, "")).toBe(hostileTranslation(text));
    expect(r.translated_text.split("\n\n")).toHaveLength(text.split("\n\n").length);
  });

  it("one failing chunk (the third call) → provider_c gets the whole text and splits it by its own token limit", async () => {
    // An unreadable answer: not retried, so the chunk fails (a 5xx would be retried and served).
    servers.provider_b.setControls({ failMode: "malformed", failAfter: 2, failNext: 1 });
    const r = await translateText({ text, source_lang: "en", target_lang: "tw" }, deps(clients(), 10_000));
    expect(r).toMatchObject({ provider: "provider_c", model_used: "provider_c/Helsinki-NLP/opus-mt-en-tw", fallback_used: true });
    expect(r.providers_tried).toEqual(["provider_b", "provider_c"]);
    expect(servers.provider_c.stats.translations.calls).toBe(r.segments);
    expect(r.segments).toBeGreaterThanOrEqual(5);
    expect(r.translated_text).not.toContain("[sandbox:khaya"); // nothing of provider_b's partial work is used
    expect(r.translated_text.split("\n\n")).toHaveLength(text.split("\n\n").length);
  });

  it("batch items are split the same way, each reporting its segments", async () => {
    const r = await translateBatch(
      [
        { id: "long", text, source_lang: "en", target_lang: "tw" },
        { id: "short", text: "Good morning", source_lang: "en", target_lang: "tw" },
      ],
      undefined,
      deps(),
    );
    expect(r.results[0]).toMatchObject({ provider: "provider_b", error: null });
    expect(r.results[0].segments).toBeGreaterThanOrEqual(5);
    expect(r.results[1]).toMatchObject({ provider: "provider_b", segments: 1 });
    expect(servers.provider_b.stats.translations.maxChars).toBeLessThanOrEqual(1_000);
  });
});
