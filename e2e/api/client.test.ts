import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createLughaClient } from "@lugha/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/** The typed client (clients/typescript) against the built app: its types match what the server answers. */

afterAll(stopAllApps);

describe("typed client against the running app", () => {
  let app: RunningApp;
  let apiKey: string;
  beforeAll(async () => {
    app = await startApp({ env: { RATE_LIMIT_TRANSLATE: "3/2s" } });
    apiKey = await mintKey(app.url, "typed client");
  });

  it("the example mints a key and translates", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["node_modules/tsx/dist/cli.mjs", "clients/typescript/examples/translate.ts"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LUGHA_URL: app.url } as unknown as NodeJS.ProcessEnv,
    });
    const out = JSON.parse(stdout);
    expect(out.translated_text).toMatch(/\[sandbox/);
    expect(out.provider).toBe("provider_a");
    expect(out.quality_score).toBeGreaterThan(0.9);
  });

  it("typed calls: languages, batch, key details, and the error envelope of a refusal", async () => {
    const lugha = createLughaClient({ baseUrl: app.url, apiKey });
    const languages = await lugha.GET("/api/v1/languages", { params: { query: { capability: "tts" } } });
    expect(languages.error).toBeUndefined();
    expect(languages.data?.languages.length).toBeGreaterThan(0);

    const batch = await lugha.POST("/api/v1/translate/batch", {
      body: { items: [{ id: "a", text: "Thank you", source_lang: "en", target_lang: "tw" }] },
    });
    expect(batch.data?.results[0]).toMatchObject({ id: "a", provider: "provider_b" });

    const me = await lugha.GET("/api/v1/auth/keys/me");
    expect(me.data?.name).toBe("typed client");

    const refused = await lugha.POST("/api/v1/translate", { body: { text: "Hello", target_lang: "xx-unknown" } });
    expect(refused.response.status).toBe(422);
    expect(refused.error?.detail.code).toBe("UNSUPPORTED_LANGUAGE");
  });

  it("a 429 is waited out for the server's Retry-After and the request then succeeds", async () => {
    const key = await mintKey(app.url, "typed client retries");
    const sleeps: number[] = [];
    const lugha = createLughaClient({
      baseUrl: app.url,
      apiKey: key,
      sleep: (ms) => {
        sleeps.push(ms);
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const translate = () => lugha.POST("/api/v1/translate", { body: { text: "Good morning", source_lang: "en", target_lang: "lug" } });
    for (let i = 0; i < 3; i++) expect((await translate()).response.status).toBe(200);
    const fourth = await translate();
    expect(fourth.response.status).toBe(200);
    expect(sleeps.length).toBeGreaterThanOrEqual(1);
    for (const ms of sleeps) expect(ms % 1000 === 0 && ms >= 1000 && ms <= 2000).toBe(true);

    const impatient = createLughaClient({ baseUrl: app.url, apiKey: key, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await impatient.POST("/api/v1/translate", { body: { text: "Good morning", target_lang: "lug" } });
    const refused = await impatient.POST("/api/v1/translate", { body: { text: "Good morning", target_lang: "lug" } });
    expect(refused.response.status).toBe(429);
    expect(refused.error?.detail.code).toBe("RATE_LIMIT_EXCEEDED");
  });
});
