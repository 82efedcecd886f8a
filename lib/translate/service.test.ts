import { describe, expect, it } from "vitest";
import { apiError } from "@/lib/kit/test-support";
import type { Detection } from "@/lib/languages/detect";
import { QUALITY } from "@/lib/providers/descriptor";
import { type ProviderClient, ProviderError, type ProviderId, type TranslateRequest, type TranslateResult } from "@/lib/providers/types";
import { codePointLength, estimateTokens } from "./limits";
import { CHUNK_CONCURRENCY } from "./long-text";
import { englishParagraphs } from "./long-text.test-support";
import { FALLBACK_SHARE, type TranslateDeps, type TranslateInput, translateText } from "./service";

/** Router unit tests with fake provider clients (the router is the unit under test; emulator-backed tests are in routing.emulator.test.ts). */

type Behaviour = (req: TranslateRequest) => Promise<TranslateResult>;

interface FakeClient extends ProviderClient {
  calls: TranslateRequest[];
  behaviour: Behaviour;
}

const MODEL: Record<ProviderId, string> = { provider_a: "sunflower", provider_b: "khaya-v1", provider_c: "" };

function ok(id: ProviderId): Behaviour {
  return async (req) => ({ translatedText: `<${id}:${req.source}>${req.target}:${req.text}`, model: req.hf?.model ?? MODEL[id] });
}

function fail(id: ProviderId, kind: ProviderError["kind"], status?: number, retryAfterMs?: number): Behaviour {
  return async () => {
    throw new ProviderError(id, kind, `fake ${kind}`, status, retryAfterMs);
  };
}

/** Never answers until the call's own deadline, then times out (what the real HTTP layer does). */
function hang(id: ProviderId): Behaviour {
  return (req) =>
    new Promise((_, reject) =>
      setTimeout(() => reject(new ProviderError(id, "timeout", "provider did not answer in time")), Math.max(0, req.deadline - Date.now())),
    );
}

function fakeClient(id: ProviderId, behaviour: Behaviour = ok(id), mode: "live" | "sandbox" = "live"): FakeClient {
  const client: FakeClient = {
    id,
    mode,
    baseUrl: `fake://${id}`,
    calls: [],
    behaviour,
    translate(req) {
      client.calls.push(req);
      return client.behaviour(req);
    },
  };
  return client;
}

function setup(overrides: Partial<Record<ProviderId, Behaviour>> = {}, deadlineMs = 5_000) {
  const clients = {
    provider_a: fakeClient("provider_a", overrides.provider_a),
    provider_b: fakeClient("provider_b", overrides.provider_b),
    provider_c: fakeClient("provider_c", overrides.provider_c),
  };
  const deps: TranslateDeps = { providers: clients, deadlineMs };
  const run = (input: TranslateInput) => translateText(input, deps);
  return { clients, deps, run };
}

describe("auto routing", () => {
  it("(a) sends pairs within {en, lug, ach, teo, nyn, lgg} to provider_a, including non-English pairs", async () => {
    const { run, clients } = setup();
    for (const [s, t] of [
      ["en", "lug"],
      ["lug", "en"],
      ["ach", "lug"],
      ["teo", "nyn"],
      ["lgg", "en"],
    ]) {
      const r = await run({ text: "Hello there", source_lang: s, target_lang: t });
      expect(r.provider).toBe("provider_a");
      expect(r.model_used).toBe("provider_a/sunflower");
      expect(r.quality_score).toBe(QUALITY["specialised-a"]);
    }
    expect(clients.provider_b.calls).toHaveLength(0);
    expect(clients.provider_c.calls).toHaveLength(0);
  });

  it("(b) sends English ↔ Khaya languages to provider_b", async () => {
    const { run, clients } = setup();
    for (const [s, t] of [
      ["en", "tw"],
      ["yo", "en"],
      ["en", "kus"],
      ["luo", "en"],
    ]) {
      const r = await run({ text: "Hello there", source_lang: s, target_lang: t });
      expect(r.provider).toBe("provider_b");
      expect(r.quality_score).toBe(QUALITY["specialised-b"]);
    }
    expect(clients.provider_a.calls).toHaveLength(0);
  });

  it("(c) sends other pairs to provider_c with the best model for the pair", async () => {
    const { run, clients } = setup();
    const sw = await run({ text: "Hello there", source_lang: "en", target_lang: "sw" });
    expect(sw).toMatchObject({ provider: "provider_c", model_used: "provider_c/Helsinki-NLP/opus-mt-en-sw", quality_score: QUALITY.dedicated });
    expect(clients.provider_c.calls[0].hf).toMatchObject({ model: "Helsinki-NLP/opus-mt-en-sw", tier: "dedicated" });

    const nllb = await run({ text: "Habari yako", source_lang: "sw", target_lang: "yo" });
    expect(nllb).toMatchObject({ model_used: "provider_c/facebook/nllb-200-distilled-600M", quality_score: QUALITY.general });
    expect(clients.provider_c.calls[1].hf).toMatchObject({ tier: "general", srcLang: "swh_Latn", tgtLang: "yor_Latn" });
  });

  it("falls back from provider_a to the next provider that serves the pair, and says so", async () => {
    for (const kind of ["network", "timeout", "unavailable", "circuit_open", "rate_limited", "malformed", "auth", "rejected"] as const) {
      const { run, clients } = setup({ provider_a: fail("provider_a", kind, kind === "unavailable" ? 503 : undefined) });
      const r = await run({ text: "Good morning", source_lang: "en", target_lang: "lug" });
      expect(r.provider, kind).toBe("provider_c");
      expect(r.model_used).toBe("provider_c/Helsinki-NLP/opus-mt-en-lg");
      expect(r.quality_score).toBe(QUALITY.dedicated);
      expect(r.fallback_used).toBe(true);
      expect(r.providers_tried).toEqual(["provider_a", "provider_c"]);
      expect(clients.provider_b.calls).toHaveLength(0); // provider_b does not serve en→lug
    }
  });

  it("falls back from provider_b to provider_c", async () => {
    const { run } = setup({ provider_b: fail("provider_b", "unavailable", 502) });
    const r = await run({ text: "Good morning", source_lang: "en", target_lang: "yo" });
    expect(r).toMatchObject({ provider: "provider_c", model_used: "provider_c/Helsinki-NLP/opus-mt-en-yo", fallback_used: true });
  });

  it("does not report a fallback when the first provider serves", async () => {
    const { run } = setup();
    const r = await run({ text: "Good morning", source_lang: "en", target_lang: "lug" });
    expect(r.fallback_used).toBe(false);
    expect(r.providers_tried).toEqual(["provider_a"]);
  });

  it("503 PROVIDER_ERROR naming every provider tried and why when all fail", async () => {
    const { run } = setup({ provider_a: fail("provider_a", "timeout"), provider_c: fail("provider_c", "network") });
    const e = await apiError(run({ text: "Good morning", source_lang: "en", target_lang: "lug" }));
    expect(e.code).toBe("PROVIDER_ERROR");
    expect(e.status).toBe(503);
    expect(e.message).toMatch(/provider_a \(timeout/);
    expect(e.message).toMatch(/provider_c \(network/);
  });

  it("503 when the only provider for the pair fails (en→ach has no fallback)", async () => {
    const { run, clients } = setup({ provider_a: fail("provider_a", "unavailable", 503) });
    const e = await apiError(run({ text: "Good morning", source_lang: "en", target_lang: "ach" }));
    expect(e.code).toBe("PROVIDER_ERROR");
    expect(e.message).toContain("provider_a");
    expect(clients.provider_c.calls).toHaveLength(0);
  });

  it("sets Retry-After on the 503 only when every failure carried a wait hint", async () => {
    const hinted = setup({
      provider_a: fail("provider_a", "circuit_open", undefined, 12_300),
      provider_c: fail("provider_c", "rate_limited", 429, 4_000),
    });
    const e1 = await apiError(hinted.run({ text: "Hi there", source_lang: "en", target_lang: "lug" }));
    expect(e1.options.headers).toEqual({ "Retry-After": "4" });
    const unhinted = setup({ provider_a: fail("provider_a", "circuit_open", undefined, 12_300), provider_c: fail("provider_c", "network") });
    const e2 = await apiError(unhinted.run({ text: "Hi there", source_lang: "en", target_lang: "lug" }));
    expect(e2.options.headers).toEqual({});
  });

  it("surfaces non-provider errors (bugs) instead of falling back", async () => {
    const { run, clients } = setup({
      provider_a: async () => {
        throw new TypeError("boom");
      },
    });
    await expect(run({ text: "Hi there", source_lang: "en", target_lang: "lug" })).rejects.toThrow(TypeError);
    expect(clients.provider_c.calls).toHaveLength(0);
  });
});

describe("provider_c model chain", () => {
  it("moves to the next model when a model is not deployed, and reports the model and quality that served", async () => {
    const behaviour: Behaviour = async (req) => {
      if (req.hf?.tier === "general") throw new ProviderError("provider_c", "rejected", "model not deployed", 404);
      return ok("provider_c")(req);
    };
    const { run, clients } = setup({ provider_c: behaviour });
    const r = await run({ text: "Good morning friends", source_lang: "en", target_lang: "zu" });
    expect(clients.provider_c.calls.map((c) => c.hf?.tier)).toEqual(["general", "fallback"]);
    expect(clients.provider_c.calls[1].hf).toMatchObject({ model: "Helsinki-NLP/opus-mt-en-mul", inputPrefix: ">>zul<< " });
    expect(r).toMatchObject({ model_used: "provider_c/Helsinki-NLP/opus-mt-en-mul", quality_score: QUALITY.fallback, fallback_used: false });
  });

  it("stops trying provider_c's models when the provider itself fails", async () => {
    const { run, clients } = setup({ provider_c: fail("provider_c", "network") });
    await apiError(run({ text: "Good morning friends", source_lang: "en", target_lang: "zu" }));
    expect(clients.provider_c.calls).toHaveLength(1);
  });

  it("uses opus-mt-mul-en for X→en when it is the only model", async () => {
    const { run } = setup({});
    // sw→en: no dedicated opus-mt-sw-en in the map, NLLB serves first; make NLLB fail to reach the fallback
    const { run: run2 } = setup({
      provider_c: async (req) => {
        if (req.hf?.tier === "general") throw new ProviderError("provider_c", "unavailable", "model is loading", 503);
        return ok("provider_c")(req);
      },
    });
    expect((await run({ text: "Habari za asubuhi", source_lang: "sw", target_lang: "en" })).model_used).toBe(
      "provider_c/facebook/nllb-200-distilled-600M",
    );
    expect((await run2({ text: "Habari za asubuhi", source_lang: "sw", target_lang: "en" })).model_used).toBe(
      "provider_c/Helsinki-NLP/opus-mt-mul-en",
    );
  });
});

describe("forced provider", () => {
  it("422 PROVIDER_UNSUPPORTED_PAIR when it cannot serve the pair, without calling anyone", async () => {
    const { run, clients } = setup();
    const e = await apiError(run({ text: "Good morning", source_lang: "en", target_lang: "lug", provider: "provider_b" }));
    expect(e.code).toBe("PROVIDER_UNSUPPORTED_PAIR");
    expect(e.status).toBe(422);
    expect(e.message).toContain("provider_a");
    // Twi: not one of Sunflower's languages, so provider_a cannot serve en → tw even as the last candidate.
    const e2 = await apiError(run({ text: "Good morning", source_lang: "en", target_lang: "tw", provider: "provider_a" }));
    expect(e2.code).toBe("PROVIDER_UNSUPPORTED_PAIR");
    expect(Object.values(clients).every((c) => c.calls.length === 0)).toBe(true);
  });

  it("forcing provider_a on a Sunflower pair outside rule (a)'s set serves it at the sunflower-extended quality; auto keeps provider_c first", async () => {
    const { run } = setup();
    const forced = await run({ text: "Good morning", source_lang: "en", target_lang: "sw", provider: "provider_a" });
    expect(forced).toMatchObject({ provider: "provider_a", model_used: "provider_a/sunflower", quality_score: 0.8 });
    const auto = await run({ text: "Good morning", source_lang: "en", target_lang: "sw" });
    expect(auto).toMatchObject({ provider: "provider_c", fallback_used: false });
  });

  it("serves with the forced provider even when auto would pick another", async () => {
    const { run } = setup();
    const r = await run({ text: "Good morning", source_lang: "en", target_lang: "lug", provider: "provider_c" });
    expect(r).toMatchObject({ provider: "provider_c", requested_provider: "provider_c" });
  });

  it("503 PROVIDER_ERROR when it fails, never falling back", async () => {
    const { run, clients } = setup({ provider_a: fail("provider_a", "network") });
    const e = await apiError(run({ text: "Good morning", source_lang: "en", target_lang: "lug", provider: "provider_a" }));
    expect(e.code).toBe("PROVIDER_ERROR");
    expect(e.message).toContain("provider_a");
    expect(clients.provider_c.calls).toHaveLength(0);
  });
});

describe("validation", () => {
  it("unknown language → 422 UNSUPPORTED_LANGUAGE naming the field", async () => {
    const { run } = setup();
    const t = await apiError(run({ text: "Hello", source_lang: "en", target_lang: "xx" }));
    expect(t.code).toBe("UNSUPPORTED_LANGUAGE");
    expect(t.options.errors?.[0].loc).toEqual(["body", "target_lang"]);
    const s = await apiError(run({ text: "Hello", source_lang: "klingon", target_lang: "lug" }));
    expect(s.options.errors?.[0].loc).toEqual(["body", "source_lang"]);
  });

  it("accepts ISO 639-3 and any case, echoing target_lang as sent", async () => {
    const { run } = setup();
    const r = await run({ text: "Hello", source_lang: "ENG", target_lang: "Lug" });
    expect(r).toMatchObject({ provider: "provider_a", target_lang: "Lug", detected_source_lang: "ENG" });
    const r2 = await run({ text: "Hello", source_lang: "eng", target_lang: "swa" });
    expect(r2.model_used).toBe("provider_c/Helsinki-NLP/opus-mt-en-sw");
  });

  it("same language after normalisation → 422 SAME_LANGUAGE", async () => {
    const { run } = setup();
    expect((await apiError(run({ text: "Hello", source_lang: "eng", target_lang: "EN" }))).code).toBe("SAME_LANGUAGE");
    expect((await apiError(run({ text: "Habari", source_lang: "swa", target_lang: "sw" }))).code).toBe("SAME_LANGUAGE");
  });

  it("whitespace-only text → 422 VALIDATION_ERROR; text is trimmed before translation and counting", async () => {
    const { run, clients } = setup();
    const e = await apiError(run({ text: " \n\t  ", source_lang: "en", target_lang: "lug" }));
    expect(e.code).toBe("VALIDATION_ERROR");
    expect(e.options.errors?.[0].loc).toEqual(["body", "text"]);
    const r = await run({ text: "  Hello  ", source_lang: "en", target_lang: "lug" });
    expect(clients.provider_a.calls.at(-1)?.text).toBe("Hello");
    expect(r.characters_translated).toBe(5);
  });

  it("counts characters as code points and enforces 5,000 after trimming", async () => {
    const { run } = setup();
    const emoji = "😀".repeat(5_000); // 10,000 UTF-16 units, 5,000 characters
    const r = await run({ text: emoji, source_lang: "en", target_lang: "lug" });
    expect(r.characters_translated).toBe(5_000);
    const e = await apiError(run({ text: "a".repeat(5_001), source_lang: "en", target_lang: "lug" }));
    expect(e.code).toBe("TEXT_TOO_LONG");
    expect((await run({ text: ` ${"a".repeat(5_000)} `, source_lang: "en", target_lang: "lug" })).characters_translated).toBe(5_000);
  });

  it("a pair nobody serves → 422 UNSUPPORTED_LANGUAGE_PAIR", async () => {
    const { run } = setup();
    const e = await apiError(run({ text: "Apwoyo matek", source_lang: "ach", target_lang: "yo" }));
    expect(e.code).toBe("UNSUPPORTED_LANGUAGE_PAIR");
  });
});

describe("provider input limits", () => {
  it("auto keeps a text over a provider's limit on that provider, split into calls within the limit", async () => {
    const { run, clients } = setup();
    const r = await run({ text: "a".repeat(1_100), source_lang: "en", target_lang: "yo" });
    expect(r).toMatchObject({ provider: "provider_b", segments: 2, fallback_used: false });
    expect(clients.provider_b.calls.map((c) => c.text.length)).toEqual([1_000, 100]);
    expect(clients.provider_c.calls).toHaveLength(0);
  });

  it("auto serves any text up to the API's 5,000 characters when a provider serves the pair: never TEXT_TOO_LONG", async () => {
    const { run, clients } = setup();
    const r = await run({ text: englishParagraphs(5_000), source_lang: "en", target_lang: "yo" });
    expect(r.provider).toBe("provider_b");
    expect(r.segments).toBeGreaterThanOrEqual(5);
    expect(Math.max(...clients.provider_b.calls.map((c) => codePointLength(c.text)))).toBeLessThanOrEqual(1_000);
  });

  it("forced provider over its limit → TEXT_TOO_LONG naming that limit", async () => {
    const { run } = setup();
    const b = await apiError(run({ text: "a".repeat(1_001), source_lang: "en", target_lang: "tw", provider: "provider_b" }));
    expect(b.code).toBe("TEXT_TOO_LONG");
    expect(b.message).toContain("1,000 characters");
    expect((await run({ text: "a".repeat(1_000), source_lang: "en", target_lang: "tw", provider: "provider_b" })).provider).toBe("provider_b");
    const c = await apiError(run({ text: "a".repeat(3_000), source_lang: "en", target_lang: "lug", provider: "provider_c" }));
    expect(c.message).toContain("512 tokens");
    expect((await run({ text: "a".repeat(3_000), source_lang: "en", target_lang: "lug" })).provider).toBe("provider_a");
  });
});

describe("long texts (split for the route that serves them)", () => {
  const marker = (id: ProviderId, target: string) => `<${id}:en>${target}:`;

  it("a 4,800-character en→tw text stays on provider_b: ≥ 5 chunks within 1,000 characters, layout kept exactly", async () => {
    const { run, clients } = setup();
    const text = englishParagraphs(4_800);
    expect(codePointLength(text)).toBeGreaterThan(4_700);
    const r = await run({ text, source_lang: "en", target_lang: "tw" });
    expect(r).toMatchObject({ provider: "provider_b", model_used: "provider_b/khaya-v1", quality_score: QUALITY["specialised-b"] });
    expect(r.segments).toBeGreaterThanOrEqual(5);
    const sent = clients.provider_b.calls.map((c) => c.text);
    expect(sent).toHaveLength(r.segments);
    for (const chunk of sent) {
      expect(codePointLength(chunk)).toBeLessThanOrEqual(1_000);
      expect(chunk).toBe(chunk.trim());
      expect(chunk).toMatch(/[.?!]$/); // cut at a sentence end
    }
    // The fake translation prefixes each chunk: without the prefixes, the original text, whitespace and all.
    expect(r.translated_text.split(marker("provider_b", "tw"))).toHaveLength(r.segments + 1);
    expect(r.translated_text.replaceAll(marker("provider_b", "tw"), "")).toBe(text);
    expect(r.characters_translated).toBe(codePointLength(text));
  });

  it("one failing chunk fails the route as a unit: the next provider gets the whole text and splits it by its own limit", async () => {
    let call = 0;
    const { run, clients } = setup({
      provider_b: async (req) => {
        if (++call === 3) throw new ProviderError("provider_b", "unavailable", "fake outage", 503);
        return ok("provider_b")(req);
      },
    });
    const text = englishParagraphs(4_800);
    const r = await run({ text, source_lang: "en", target_lang: "yo" });
    expect(r).toMatchObject({ provider: "provider_c", fallback_used: true, providers_tried: ["provider_b", "provider_c"] });
    expect(r.model_used).toBe("provider_c/Helsinki-NLP/opus-mt-en-yo");
    expect(r.segments).toBe(clients.provider_c.calls.length);
    expect(r.segments).toBeGreaterThanOrEqual(5);
    for (const c of clients.provider_c.calls) expect(estimateTokens(c.text, c.hf?.inputPrefix)).toBeLessThanOrEqual(512);
    expect(r.translated_text.replaceAll(marker("provider_c", "yo"), "")).toBe(text);
    // The chunks in flight when the third failed were cancelled; none started after it.
    expect(clients.provider_b.calls.length).toBeLessThanOrEqual(3 + CHUNK_CONCURRENCY - 1);
    expect(clients.provider_b.calls.filter((c) => c.signal?.aborted).length).toBeGreaterThan(0);
  });

  it("at most CHUNK_CONCURRENCY calls of one text are in flight at once", async () => {
    let inFlight = 0;
    let peak = 0;
    const { run } = setup({
      provider_b: async (req) => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, 10));
        inFlight--;
        return ok("provider_b")(req);
      },
    });
    const r = await run({ text: englishParagraphs(4_800), source_lang: "en", target_lang: "tw" });
    expect(r.segments).toBeGreaterThan(CHUNK_CONCURRENCY);
    expect(peak).toBe(CHUNK_CONCURRENCY);
  });

  it("a chunk that hangs fails the route at its share of the deadline, and the next provider still serves", async () => {
    let call = 0;
    const { run } = setup({ provider_b: (req) => (++call === 2 ? hang("provider_b")(req) : ok("provider_b")(req)) }, 1_000);
    const t0 = Date.now();
    const r = await run({ text: englishParagraphs(2_400), source_lang: "en", target_lang: "yo" });
    expect(r.provider).toBe("provider_c");
    expect(Date.now() - t0).toBeLessThan(1_100);
  });

  it("a forced provider within its input limit still splits for its output bound (provider_a: 1,200 characters a call)", async () => {
    const { run, clients } = setup();
    const text = englishParagraphs(3_000);
    const r = await run({ text, source_lang: "en", target_lang: "lug", provider: "provider_a" });
    expect(r).toMatchObject({ provider: "provider_a", requested_provider: "provider_a" });
    expect(r.segments).toBe(clients.provider_a.calls.length);
    expect(r.segments).toBeGreaterThanOrEqual(3);
    for (const c of clients.provider_a.calls) expect(codePointLength(c.text)).toBeLessThanOrEqual(1_200);
    expect(r.translated_text.replaceAll(marker("provider_a", "lug"), "")).toBe(text);
  });

  it("a text one call takes is sent whole: segments 1", async () => {
    const { run, clients } = setup();
    const r = await run({ text: englishParagraphs(900), source_lang: "en", target_lang: "tw" });
    expect(r.segments).toBe(1);
    expect(clients.provider_b.calls).toHaveLength(1);
  });
});

describe("deadline", () => {
  it("a hanging provider leaves time for the fallback, and the whole request stays within the deadline", async () => {
    const deadlineMs = 600;
    const { run, clients } = setup({ provider_a: hang("provider_a") }, deadlineMs);
    const t0 = Date.now();
    const r = await run({ text: "Good morning", source_lang: "en", target_lang: "lug" });
    const elapsed = Date.now() - t0;
    expect(r.provider).toBe("provider_c");
    expect(elapsed).toBeLessThan(deadlineMs + 100);
    const aBudget = clients.provider_a.calls[0].deadline - t0;
    expect(aBudget).toBeLessThanOrEqual(Math.ceil(deadlineMs * FALLBACK_SHARE) + 20);
  });

  it("the last provider gets the rest of the deadline", async () => {
    const { run, clients } = setup({ provider_a: hang("provider_a") }, 400);
    await apiError(run({ text: "Good morning", source_lang: "en", target_lang: "ach" }));
    expect(clients.provider_a.calls[0].deadline - Date.now()).toBeLessThanOrEqual(0);
  });
});

describe("source detection in translate", () => {
  it("detects when source_lang is omitted and reports confidence; echoes a supplied source with null confidence", async () => {
    const { run } = setup();
    const r = await run({ text: "Good morning", target_lang: "lug" });
    expect(r.detected_source_lang).toBe("en");
    expect(r.detected_source_confidence).toBeGreaterThan(0.5);
    const r2 = await run({ text: "Good morning", target_lang: "lug", source_lang: "en" });
    expect(r2.detected_source_confidence).toBeNull();
    const r3 = await run({ text: "Webale nnyo", target_lang: "en", source_lang: "auto" });
    expect(r3.detected_source_lang).toBe("lug");
  });

  it("SAME_LANGUAGE that says the source was detected", async () => {
    const { run } = setup();
    const e = await apiError(run({ text: "Thank you very much", target_lang: "en" }));
    expect(e.code).toBe("SAME_LANGUAGE");
    expect(e.message).toMatch(/detected/);
  });
});

describe("result fields", () => {
  it("has exactly the contract's fields plus the documented additive ones, with the right types", async () => {
    const { run } = setup();
    const startedAt = performance.now() - 25;
    const r = await translateText({ text: "Hello", source_lang: "en", target_lang: "lug" }, setup().deps, { startedAt });
    expect(Object.keys(r).sort()).toEqual(
      [
        "translated_text",
        "detected_source_lang",
        "target_lang",
        "model_used",
        "provider",
        "quality_score",
        "latency_ms",
        "characters_translated",
        "detected_source_confidence",
        "detection_method",
        "requested_provider",
        "fallback_used",
        "providers_tried",
        "segments",
        "glossary_terms_applied",
        "sandbox",
        "cached",
        "upstream_calls",
      ].sort(),
    );
    expect(Number.isInteger(r.latency_ms)).toBe(true);
    expect(r.latency_ms).toBeGreaterThanOrEqual(25); // whole request, from startedAt
    expect(r.sandbox).toBe(false);
    void run;
  });

  it("marks results served by a sandbox client", async () => {
    const deps: TranslateDeps = {
      providers: {
        provider_a: fakeClient("provider_a", undefined, "sandbox"),
        provider_b: fakeClient("provider_b"),
        provider_c: fakeClient("provider_c"),
      },
      deadlineMs: 1_000,
    };
    expect((await translateText({ text: "Hello", source_lang: "en", target_lang: "lug" }, deps)).sandbox).toBe(true);
    expect((await translateText({ text: "Hello", source_lang: "en", target_lang: "sw" }, deps)).sandbox).toBe(false);
  });
});

describe("detection method and an unsure source", () => {
  it("says which method decided, and lets a provider infer the source only when detection was not reliable", async () => {
    const { clients, deps } = setup();
    const sure = { code: "ach", confidence: 0.9, method: "language_id" as const, reliable: true };
    const unsure = { code: "ach", confidence: 0.45, method: "statistical" as const, reliable: false };
    let detection: Detection = sure;
    const withDetect: TranslateDeps = { ...deps, detect: async () => detection };
    const r = await translateText({ text: "Wan wamito pii ma leng", target_lang: "lug" }, withDetect);
    expect(r).toMatchObject({ detected_source_lang: "ach", detection_method: "language_id", provider: "provider_a" });
    expect(clients.provider_a.calls.at(-1)?.inferSource).toBe(false);
    detection = unsure;
    expect((await translateText({ text: "Wan wamito pii", target_lang: "lug" }, withDetect)).detection_method).toBe("statistical");
    expect(clients.provider_a.calls.at(-1)?.inferSource).toBe(true);
    expect((await translateText({ text: "Hello", source_lang: "en", target_lang: "lug" }, withDetect)).detection_method).toBeNull();
    expect(clients.provider_a.calls.at(-1)?.inferSource).toBe(false);
  });
});
