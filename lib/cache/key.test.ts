import { describe, expect, test } from "vitest";
import { cacheKey, cacheScope } from "./key";

const base = {
  scope: "key:cm123",
  mode: "live",
  requestedProvider: "auto",
  source: "en",
  target: "tw",
  modelMapVersion: "2026-05-01",
  text: "Good morning, how are you?",
};

describe("cacheKey", () => {
  test("is stable for equal inputs and holds a SHA-256, never the text", () => {
    const key = cacheKey(base);
    expect(cacheKey({ ...base })).toBe(key);
    expect(key).toMatch(/^lugha:tc:v1:key%3Acm123:[0-9a-f]{64}$/);
    expect(key).not.toContain("morning");
    expect(cacheKey({ ...base, text: "Ɛyɛ papa 👩🏽‍💻" })).not.toMatch(/Ɛ|👩/u);
  });

  test.each([
    ["scope", { scope: "key:cm999" }],
    ["mode", { mode: "sandbox" }],
    ["requested provider", { requestedProvider: "provider_b" }],
    ["source", { source: "fr" }],
    ["target", { target: "ee" }],
    ["model map", { modelMapVersion: "2026-06-01" }],
    ["text", { text: "Good morning, how are you? " }],
  ])("every input changes the key: %s", (_, change) => {
    expect(cacheKey({ ...base, ...change })).not.toBe(cacheKey(base));
  });

  test("fields cannot run into each other", () => {
    expect(cacheKey({ ...base, source: "en", target: "tw" })).not.toBe(cacheKey({ ...base, source: "ent", target: "w" }));
    expect(cacheKey({ ...base, text: 'a","b' })).not.toBe(cacheKey({ ...base, text: "a", modelMapVersion: `b",${base.modelMapVersion}` }));
  });

  test("extra: order-independent, undefined ignored, every defined value counts", () => {
    const plain = cacheKey(base);
    expect(cacheKey({ ...base, extra: {} })).toBe(plain);
    expect(cacheKey({ ...base, extra: { glossary: undefined } })).toBe(plain);
    const a = cacheKey({ ...base, extra: { format: "html", glossary: "g1" } });
    expect(cacheKey({ ...base, extra: { glossary: "g1", format: "html" } })).toBe(a);
    expect(a).not.toBe(plain);
    expect(cacheKey({ ...base, extra: { format: "markdown", glossary: "g1" } })).not.toBe(a);
    expect(cacheKey({ ...base, extra: { dnt: ["Lugha", "Accra"] } })).not.toBe(cacheKey({ ...base, extra: { dnt: ["Lugha"] } }));
    expect(cacheKey({ ...base, extra: { placeholders: false } })).not.toBe(cacheKey({ ...base, extra: { placeholders: null } }));
  });
});

describe("cacheScope", () => {
  test("per key by default, one shared scope when global", () => {
    expect(cacheScope("key", "cmA")).toBe("key:cmA");
    expect(cacheScope("key", "cmB")).not.toBe(cacheScope("key", "cmA"));
    expect(cacheScope("global", "cmA")).toBe("global");
    expect(cacheScope("global", "cmB")).toBe("global");
  });
});
