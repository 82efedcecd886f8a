/** Never reflect input: every field of translate, batch and /languages that can fail answers without quoting the caller. */
import { describe, expect, it } from "vitest";
import { validate } from "@/lib/kit/body";
import { ApiError } from "@/lib/kit/errors";
import { listLanguages } from "@/lib/languages/listing";
import { testProviders } from "@/lib/providers/test-support";
import { expectNotReflected, HOSTILE_VALUES, MARKER, thrown } from "@/lib/routing/hostile.test-support";
import { translateBatch } from "./batch";
import { BatchTranslateRequest, TranslateRequest } from "./schemas";
import { type TranslateDeps, translateText } from "./service";

const deps: TranslateDeps = { providers: testProviders({ PROVIDER_MODE: "sandbox" }).clients, deadlineMs: 5_000 };

describe("translate never reflects caller input in an error", () => {
  for (const value of HOSTILE_VALUES) {
    const label = `${value.slice(0, 30)}… (${value.length} characters)`;

    it(`target_lang, source_lang, provider: ${label}`, async () => {
      const target = await thrown(() => translateText({ text: "Good morning", source_lang: "en", target_lang: value }, deps));
      expect(target).toBeInstanceOf(ApiError);
      expect((target as ApiError).code).toBe("UNSUPPORTED_LANGUAGE");
      expect((target as ApiError).message).toMatch(/^target_lang is not a supported language code\. GET \/api\/v1\/languages/);
      await expectNotReflected(target, "target_lang");
      await expectNotReflected(await thrown(() => translateText({ text: "Hi", source_lang: value, target_lang: "lug" }, deps)), "source_lang");
      await expectNotReflected(
        await thrown(() => validate(TranslateRequest, { text: "Hi", target_lang: "lug", provider: value }, "body")),
        "provider",
      );
      await expectNotReflected(await thrown(() => validate(TranslateRequest, { target_lang: "lug", [value]: 1 }, "body")), "field name");
    });

    it(`batch items: ${label}`, async () => {
      const items = [
        { id: "target", text: "Good morning", source_lang: "en", target_lang: value },
        { id: "source", text: "Good morning", source_lang: value, target_lang: "lug" },
      ];
      const r = await translateBatch(items, "auto", deps);
      expect(r.results.map((x) => x.error_code)).toEqual(["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_LANGUAGE"]);
      expect(JSON.stringify(r).toLowerCase()).not.toContain(MARKER.toLowerCase());
      const invalid = [{ id: "x", text: "Hi", target_lang: "lug", provider: value }];
      await expectNotReflected(await thrown(() => validate(BatchTranslateRequest, { items: invalid, provider: value }, "body")), "batch provider");
    });

    it(`GET /languages ?source: ${label}`, async () => {
      await expectNotReflected(await thrown(() => listLanguages({ source: value })), "source");
    });
  }
});
