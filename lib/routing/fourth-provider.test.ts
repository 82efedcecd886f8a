/**
 * A fourth provider added the way a real one would be — a tiny client, its emulator and its descriptor, all in this
 * file: it is routed, listed by GET /languages and falls back like the three real ones. The last block lists the
 * files outside its own that a real provider touches (its id, its variables, its place in the routing order).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { budgetVariable } from "@/lib/budgets";
import { apiError } from "@/lib/kit/test-support";
import { listLanguages } from "@/lib/languages/listing";
import { hfModels } from "@/lib/languages/models";
import { PROVIDERS, type ProviderDescriptor } from "@/lib/providers";
import { BaseClient, type ClientOptions } from "@/lib/providers/client";
import { errorForStatus, isRecord } from "@/lib/providers/http";
import type { ProviderBehaviour } from "@/lib/providers/sandbox/emulator";
import { json, readJson } from "@/lib/providers/sandbox/respond";
import { makeWav } from "@/lib/providers/sandbox/wav";
import { testProviders } from "@/lib/providers/test-support";
import type { ProviderClient, ProviderId, TranscribeRequest, TranscribeResult, TranslateRequest, TranslateResult } from "@/lib/providers/types";
import { transcribeAudio } from "@/lib/speech/stt";
import { type TranslateDeps, translateText } from "@/lib/translate/service";

// The API's provider enum lists the three real providers; this one exists only in this test.
const FOURTH = "provider_d" as ProviderId;

class FourthClient extends BaseClient implements ProviderClient {
  constructor(opts: ClientOptions) {
    super(FOURTH, opts);
  }

  translate(req: TranslateRequest): Promise<TranslateResult> {
    return this.call({
      path: "/translate",
      init: {
        method: "POST",
        headers: this.headers({ "content-type": "application/json" }),
        body: JSON.stringify({ q: req.text, from: req.source, to: req.target }),
      },
      deadline: req.deadline,
      handle: async (res, signal) => {
        const body = await this.readJson(res, signal);
        if (!isRecord(body) || typeof body.out !== "string") throw this.malformed("provider sent an unexpected response", res.status);
        return { translatedText: body.out, model: "fourth-mt" };
      },
    });
  }

  transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
    return this.call({
      path: `/stt?lang=${req.language}`,
      speech: true,
      init: { method: "POST", headers: this.headers({ "content-type": req.contentType }), body: new Uint8Array(req.audio) },
      deadline: req.deadline,
      handle: async (res, signal) => {
        const body = await this.readJson(res, signal);
        if (!isRecord(body) || typeof body.text !== "string") throw this.malformed("provider sent an unexpected response", res.status);
        return { transcript: body.text, model: "fourth-asr" };
      },
    });
  }

  protected failure(res: Response) {
    return errorForStatus(this.id, res.status);
  }
}

function fourthBehaviour(): ProviderBehaviour {
  return {
    async route(req, url) {
      if (url.pathname === "/translate") {
        const body = await readJson(req);
        return isRecord(body) ? json(200, { out: `[fourth ${body.from}→${body.to}] ${body.q}` }) : json(400, { error: "bad body" });
      }
      if (url.pathname === "/stt") return json(200, { text: `[fourth ${url.searchParams.get("lang")}] transcript` });
      return json(404, { error: "not found" });
    },
    errorResponse: (status) => json(status, { error: "failure" }),
    loadingResponse: () => json(503, { error: "loading" }),
    rateLimitedResponse: () => json(429, { error: "slow down" }),
    successSample: () => ({ contentType: "application/json", body: JSON.stringify({ out: "sample" }) }),
    translationText: (url, body) => (url.pathname === "/translate" && isRecord(body) && typeof body.q === "string" ? body.q : undefined),
  };
}

const fourth: ProviderDescriptor = {
  id: FOURTH,
  displayName: "Fourth MT",
  blurb: "a fourth upstream",
  client: FourthClient,
  env: { url: "FOURTH_API_URL", credential: "FOURTH_API_KEY" },
  emulator: { kind: "fourth", behaviour: fourthBehaviour },
  translation: {
    limit: { unit: "characters", max: 200 },
    // Acholi ↔ Yoruba, which nobody else serves, and English ↔ Luganda, which provider_a serves too.
    routes: (source, target) => {
      const pair = `${source}>${target}`;
      return ["ach>yo", "yo>ach", "en>lug", "lug>en"].includes(pair) ? [{ model: "fourth-mt", tier: "dedicated" }] : [];
    },
  },
  stt: { languages: ["ach"], formats: ["wav"], model: () => "fourth-asr" },
};

function setup(catalogue: readonly ProviderDescriptor[]) {
  const { clients, emulators } = testProviders({ PROVIDER_MODE: "sandbox", PROVIDER_MAX_RETRIES: "0" }, catalogue);
  const deps: TranslateDeps = { providers: clients, deadlineMs: 5_000, catalogue };
  return { clients, emulators, deps };
}

describe("a fourth provider, from its descriptor alone", () => {
  it("is routed for the pairs only it serves, with its model and its tier's quality", async () => {
    const catalogue = [...PROVIDERS, fourth];
    const { deps } = setup(catalogue);
    const r = await translateText({ text: "Good morning", source_lang: "ach", target_lang: "yo" }, deps);
    expect(r).toMatchObject({
      translated_text: "[fourth ach→yo] Good morning",
      provider: FOURTH,
      model_used: "provider_d/fourth-mt",
      quality_score: 0.85,
      providers_tried: [FOURTH],
      fallback_used: false,
      sandbox: true,
    });
    // Without its descriptor nobody serves the pair.
    expect((await apiError(translateText({ text: "Good morning", source_lang: "ach", target_lang: "yo" }, setup(PROVIDERS).deps))).code).toBe(
      "UNSUPPORTED_LANGUAGE_PAIR",
    );
  });

  it("takes its place in the routing order and falls back to the next provider when it fails", async () => {
    const catalogue = [fourth, ...PROVIDERS];
    const { deps, emulators } = setup(catalogue);
    const first = await translateText({ text: "Good morning", source_lang: "en", target_lang: "lug" }, deps);
    expect(first).toMatchObject({ provider: FOURTH, providers_tried: [FOURTH] });

    emulators[FOURTH]!.setControls({ failMode: "status", status: 503 });
    const fallback = await translateText({ text: "Good morning", source_lang: "en", target_lang: "lug" }, deps);
    expect(fallback).toMatchObject({ provider: "provider_a", fallback_used: true, providers_tried: [FOURTH, "provider_a"] });

    // Its input limit is its own: text over 200 characters stays on it, split into calls within 200.
    emulators[FOURTH]!.reset();
    const long = await translateText({ text: "Good morning. ".repeat(20), source_lang: "en", target_lang: "lug" }, deps);
    expect(long).toMatchObject({ provider: FOURTH, providers_tried: [FOURTH], segments: 2 });
    expect(emulators[FOURTH]!.stats.translations).toMatchObject({ calls: 2 });
    expect(emulators[FOURTH]!.stats.translations.maxChars).toBeLessThanOrEqual(200);

    // Forced and failing: the same 503 as any provider, naming it.
    emulators[FOURTH]!.setControls({ failMode: "status", status: 503 });
    const forced = await apiError(translateText({ text: "Hi", source_lang: "ach", target_lang: "yo", provider: FOURTH }, deps));
    expect(forced.code).toBe("PROVIDER_ERROR");
    expect(forced.message).toMatch(/^provider_d failed for Acholi \(ach\) → Yoruba \(yo\): unavailable: /);
  });

  it("transcribes, and is a fallback for speech too", async () => {
    const catalogue = [...PROVIDERS, fourth];
    const { clients, emulators } = setup(catalogue);
    const speechDeps = { providers: clients, deadlineMs: 5_000, maxAudioSeconds: 600, catalogue };
    emulators.provider_a!.setControls({ failMode: "status", status: 503 });
    const r = await transcribeAudio({ audio: makeWav({ durationSeconds: 0.5 }), language: "ach" }, speechDeps);
    expect(r).toMatchObject({ transcript: "[fourth ach] transcript", provider: FOURTH, model_used: "provider_d/fourth-asr", fallback_used: true });
    expect(r.providers_tried).toEqual(["provider_a", FOURTH]);
  });

  it("is listed by GET /languages: its pairs, its speech, and under ?provider", () => {
    const catalogue = [...PROVIDERS, fourth];
    const all = listLanguages({ source: "ach" }, hfModels(), catalogue);
    expect(all.languages.find((l) => l.code === "yo")?.from_source).toEqual({
      source: "ach",
      provider: FOURTH,
      model: "fourth-mt",
      quality_score: 0.85,
      quality_band: "good",
    });
    const own = listLanguages({ provider: FOURTH as never }, hfModels(), catalogue);
    expect(own.languages.map((l) => l.code).sort()).toEqual(["ach", "en", "lug", "yo"]);
    const acholi = own.languages.find((l) => l.code === "ach")!;
    expect(acholi.stt.providers).toEqual([{ provider: FOURTH, model: "fourth-asr", formats: ["wav"] }]);
    expect(listLanguages({ source: "ach" }, hfModels(), PROVIDERS).languages.map((l) => l.code)).not.toContain("yo");
  });
});

/**
 * What adding a real provider touches besides its own files (client, descriptor, emulator): the files whose code wires
 * an existing provider in — its variables, its budget variable, its descriptor module (comments and prose aside).
 * docs/architecture.md "Adding a provider" lists the same files; the features, the composition root and the portal
 * read the descriptors and wire none of them.
 */
describe("the files a provider touches", () => {
  const ROOT = path.resolve(import.meta.dirname, "../..");
  const TOUCHED = ["lib/config/index.ts", "lib/providers/descriptors.ts", "docs/configuration.md", ".env.example"];
  /** Provider-specific features outside the provider's own files, and why. */
  const SPECIFIC: Record<string, string[]> = {
    // Which Hugging Face models the inference service runs is asked of the Hub (HF_HUB_URL, with HF_TOKEN).
    provider_c: ["lib/server/availability.ts"],
  };

  function files(dir: string): string[] {
    return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === "generated" ? [] : files(rel);
      return /\.(ts|tsx|mts|mjs)$/.test(e.name) && !/\.test\.|test-support|\.d\.ts$/.test(e.name) ? [rel] : [];
    });
  }
  const scanned = [...["lib", "app", "components"].flatMap(files), "instrumentation.ts", "proxy.ts", "docs/configuration.md", ".env.example"];
  const withoutComments = (text: string, file: string) =>
    // Comments that open a line (JSDoc blocks, // lines, trailing // notes after code) — enough for this code base.
    file.endsWith(".md") || file.startsWith(".env")
      ? text
      : text
          .replace(/^\s*\/\*[\s\S]*?\*\//gm, "")
          .replace(/^\s*\/\/.*$/gm, "")
          .replace(/[;,{]\s*\/\/.*$/gm, "");

  for (const descriptor of PROVIDERS) {
    it(`${descriptor.id}: its variables and descriptor are wired in exactly ${TOUCHED.join(", ")}`, () => {
      const base = descriptor.client.name.replace(/Client$/, "").toLowerCase();
      const kind = descriptor.emulator.kind;
      const own = (file: string) => new RegExp(`(^|/)(${base}|${kind})(\\.descriptor)?\\.ts$|/sandbox/(${base}|${kind})[\\w-]*\\.ts$`).test(file);
      const names = [descriptor.env.url, descriptor.env.credential, budgetVariable(descriptor.id), `${base}.descriptor`];
      const wiring = scanned.filter((file) => {
        if (own(file)) return false;
        const text = withoutComments(readFileSync(path.join(ROOT, file), "utf8"), file);
        return names.some((n) => text.includes(n));
      });
      expect(wiring.sort()).toEqual([...TOUCHED, ...(SPECIFIC[descriptor.id] ?? [])].sort());
    });
  }

  it("its id is one entry of PROVIDER_IDS (the API's provider enum)", async () => {
    const { PROVIDER_IDS } = await import("@/lib/providers/types");
    expect([...PROVIDER_IDS]).toEqual(PROVIDERS.map((d) => d.id));
  });
});
