import { execFileSync } from "node:child_process";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { ISSUANCE_LIMIT, SPEECH_MAX_AUDIO_SECONDS } from "./constants";

/**
 * Browser tests of the portal and /docs, in the Chromium that the `@sparticuz/chromium` npm package ships (unpacked by
 * scripts/lib/chromium.mjs; CHROMIUM_PATH picks another; Playwright downloads no browser), against the production build — built beforehand by `npm test` (scripts/test.mjs); this config never builds.
 *
 * The server: `next start` on an in-memory PGlite, sandbox providers, fixed secrets. TRUST_PROXY=true so each test
 * can present its own client address (X-Forwarded-For, see fixtures.ts): key issuance is throttled per address, and
 * a low issuance limit lets one test reach the 429 without starving the others.
 */
const root = path.resolve(__dirname, "../..");
// Chosen once in the runner process; workers inherit the environment and so agree on it.
process.env.LUGHA_E2E_PORT ??= String(20_000 + (process.pid % 20_000));
const port = Number(process.env.LUGHA_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
// Unpacked once in the runner process; workers inherit the answer through the environment.
process.env.LUGHA_E2E_CHROMIUM ??= execFileSync(process.execPath, [path.join(root, "scripts/lib/chromium.mjs")], { encoding: "utf8" });
const browser = JSON.parse(process.env.LUGHA_E2E_CHROMIUM) as { executablePath: string; env: Record<string, string> };

export default defineConfig({
  testDir: __dirname,
  testMatch: "**/*.spec.ts",
  outputDir: path.join(root, "test-results/playwright"),
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // As in vitest.config.mts: one retry; a test that passes on it is named as flaky in npm test's summary.
  retries: 1,
  forbidOnly: !!process.env.CI,
  reporter: [
    ["list"],
    ["json", { outputFile: path.resolve(process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(root, "test-results/playwright.json")) }],
  ],
  use: {
    baseURL,
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: browser.executablePath,
      env: { ...process.env, ...browser.env } as Record<string, string>,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        // A fake microphone for the playground's recorder, granted without a prompt: a beep, or the speech a spec names
        // with --use-file-for-fake-audio-capture (speech.spec.ts launches its own browser for that).
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
      ],
    },
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: {
    command: `node node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`,
    cwd: root,
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: "pglite:memory",
      PROVIDER_MODE: "sandbox",
      API_KEY_HASH_SECRET: "e2e-browser-hash-secret",
      NEXTAUTH_SECRET: "e2e-browser-nextauth-secret-0123456789abcdef",
      NEXTAUTH_URL: baseURL,
      TRUST_PROXY: "true",
      RATE_LIMIT_ISSUANCE: `${ISSUANCE_LIMIT}/3600s`,
      // A recording's length limit a test can reach: the recorder stops itself at it (speech.spec.ts).
      SPEECH_MAX_AUDIO_SECONDS: String(SPEECH_MAX_AUDIO_SECONDS),
      // Never a developer's shared stores or provider credentials.
      UPSTASH_REDIS_REST_URL: "",
      UPSTASH_REDIS_REST_TOKEN: "",
      REDIS_URL: "",
      SUNBIRD_API_TOKEN: "",
      KHAYA_API_KEY: "",
      HF_TOKEN: "",
    },
  },
});
