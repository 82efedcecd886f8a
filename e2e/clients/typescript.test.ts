import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { audioFixtures, removeAudioFixtures } from "../support/audio";

/**
 * @lugha/client as a user gets it: `npm pack` of the workspace (its prepare script builds dist/), the tarball
 * installed with `npm install` into a new project outside the repository, then used from plain ESM and CommonJS
 * scripts, type-checked from TypeScript against the installed declarations, and run as the `lugha` command, all
 * against the built app. The in-repository client (its source) is tested by clients/typescript/*.test.ts and
 * e2e/api/client.test.ts; this file is about what the tarball holds and how it installs.
 */

const REPO = path.resolve(import.meta.dirname, "../..");
const CLIENT_DIR = path.join(REPO, "clients/typescript");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A user's shell, not this test run's environment (npm test's npm_* and vitest's variables would leak into npm and
 * node): PATH and HOME, and the machine's network settings — a registry reached through a proxy with its own
 * certificate authority needs NODE_EXTRA_CA_CERTS or SSL_CERT_FILE, as every other npm install on the machine has.
 */
const USER_ENV = /^(PATH|HOME|TMPDIR|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(HTTPS?|NO|ALL)_PROXY)$/i;
const userEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => USER_ENV.test(name)));

/** A process to completion, its exit code and output whatever it is (execFile rejects on a non-zero exit). */
function run(cmd: string, args: string[], options: { cwd: string; env?: Record<string, string | undefined>; timeout?: number }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd: options.cwd,
        env: { ...userEnv, ...options.env } as NodeJS.ProcessEnv,
        timeout: options.timeout ?? 90_000,
        maxBuffer: 32 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr: stderr + (err && typeof err.code !== "number" ? `\n${err.message}` : "") });
      },
    );
  });
}

/** npm as the test run got it (`npm test` sets npm_execpath), else the one on PATH. */
function npm(args: string[], cwd: string): Promise<Run> {
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.js$/.test(cli) ? run(process.execPath, [cli, ...args], { cwd }) : run("npm", args, { cwd });
}

/** npx beside that npm (node_modules/npm/bin/npx-cli.js), else the one on PATH. */
function npx(args: string[], cwd: string): Promise<Run> {
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.js$/.test(cli)
    ? run(process.execPath, [path.join(path.dirname(cli), "npx-cli.js"), ...args], { cwd })
    : run("npx", args, { cwd });
}

function ok(r: Run, what: string): Run {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

let project: string;
let tarball: string;
let packedFiles: string[];
let app: RunningApp;
let stub: { url: string; requests: { method: string; url: string; contentType: string | undefined; body: string }[]; close(): Promise<void> };

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), "lugha-client-install-"));
  // The app starts (and the audio is synthesised) while the package is packed and installed.
  const started = Promise.all([
    startApp({ env: { RATE_LIMIT_TRANSLATE: "1/2s", RATE_LIMIT_STT: "100/60s", RATE_LIMIT_TTS: "100/60s" } }),
    audioFixtures(),
  ]);
  started.catch(() => undefined);

  const packDir = path.join(project, "pack");
  mkdirSync(packDir);
  // As the guide and the client's README say: `npm pack -w @lugha/client` in the checkout.
  const pack = ok(await npm(["pack", "-w", "@lugha/client", "--json", "--pack-destination", packDir], REPO), "npm pack");
  const [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(packDir, packed.filename);
  packedFiles = packed.files.map((f) => f.path).sort();

  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "lugha-install-check", version: "1.0.0", private: true }, null, 2));
  // From the npm cache the repository's own install filled (openapi-fetch, @types/node); the registry otherwise.
  ok(
    await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=http", tarball, "@types/node@24.19.2"], project),
    "npm install of the tarball",
  );

  const [running, fx] = await started;
  app = running;
  writeFileSync(path.join(project, "speech.wav"), fx.files.wav.bytes);
  stub = await startStub();
}, 300_000);

afterAll(async () => {
  await Promise.all([stopAllApps(), stub?.close()]);
  removeAudioFixtures();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Exercises the installed package; {{IMPORT}} becomes an import (ESM) or a require (CommonJS). */
const SCRIPT = `{{IMPORT}}

async function main() {
  const baseUrl = process.env.LUGHA_BASE_URL;
  const apiKey = process.env.LUGHA_API_KEY;
  const sleeps = [];
  const lugha = new Lugha({ apiKey, baseUrl, sleep: (ms) => { sleeps.push(ms); return new Promise((r) => setTimeout(r, ms)); } });
  const out = {};
  const first = await lugha.translate({ text: "Good morning", source_lang: "en", target_lang: "lug" });
  // RATE_LIMIT_TRANSLATE is 1/2s: this one is refused with 429, waited out for Retry-After, and sent again.
  const second = await lugha.translate({ text: "Thank you", source_lang: "en", target_lang: "lug" });
  out.translate = [first.translated_text, second.translated_text, first.provider];
  out.sleeps = sleeps;
  const impatient = new Lugha({ apiKey, baseUrl, maxRetries: 0 });
  try {
    await impatient.translate({ text: "Welcome", source_lang: "en", target_lang: "lug" });
    out.refused = "not refused";
  } catch (e) {
    out.refused = { isLughaError: e instanceof LughaError, name: e.name, status: e.status, code: e.code, requestId: e.requestId, retryAfter: e.retryAfter };
  }
  const batch = await lugha.translateBatch({ items: [{ id: "a", text: "Thank you", source_lang: "en", target_lang: "tw" }, { id: "b", text: "Hello", target_lang: "xx-unknown" }] });
  out.batch = { succeeded: batch.succeeded, failed: batch.failed, codes: batch.results.map((r) => r.error_code) };
  const detected = await lugha.detect(["Good morning, how are you today?", "Wasuze otya nno?"]);
  out.detect = detected.results.map((r) => r.language);
  const audio = readFileSync("speech.wav");
  const stt = await lugha.transcribe({ audio, filename: "speech.wav", language: "en" });
  out.transcribe = { transcript: stt.transcript, content_type: stt.audio_content_type };
  const tts = await lugha.speak({ text: "Oli otya", language: "lug" });
  out.speak = { riff: String.fromCharCode(...tts.audio.subarray(0, 4)), content_type: tts.content_type };
  out.key = (await lugha.keyInfo()).name;
  out.languages = (await lugha.languages({ capability: "tts" })).total > 0;
  out.usage = typeof (await lugha.usage()).totals.requests;
  try {
    await lugha.translate({ text: "Hello", target_lang: "xx-unknown" });
  } catch (e) {
    out.invalid = { status: e.status, code: e.code, requestId: e.requestId };
  }
  try {
    await new Lugha({ apiKey, baseUrl: "http://127.0.0.1:1" }).detect("hello");
  } catch (e) {
    out.unreachable = { isConnectionError: e instanceof LughaConnectionError, isLughaError: e instanceof LughaError, status: e.status, code: e.code };
  }
  console.log(JSON.stringify(out));
}
main().catch((e) => { console.error(e); process.exit(1); });
`;

/** A typed caller: STT from a Buffer, a Uint8Array and a Blob, errors narrowed with instanceof; no cast anywhere. */
const TYPED = `{{IMPORT}}
import type { SttResponse, TranslateResponse } from "@lugha/client";

async function main(): Promise<void> {
  const lugha = new Lugha({ apiKey: process.env.LUGHA_API_KEY, baseUrl: process.env.LUGHA_BASE_URL });
  const buffer: Buffer = readFileSync("speech.wav");
  const fromBuffer: SttResponse = await lugha.transcribe({ audio: buffer, filename: "speech.wav", language: "en" });
  const fromBytes = await lugha.transcribe({ audio: new Uint8Array(buffer), language: "en", provider: "auto" });
  const fromBlob = await lugha.transcribe({ audio: new Blob([new Uint8Array(buffer)]), filename: "speech.wav", language: "en" });
  const translated: TranslateResponse = await lugha.translate({ text: "Good evening", source_lang: "en", target_lang: "sw" });
  const score: number = translated.quality_score;
  const spoken: Uint8Array = (await lugha.speak({ text: "Habari", language: "sw" })).audio;
  let code = "none";
  try {
    await lugha.detect("");
  } catch (e) {
    if (e instanceof LughaError) code = \`\${e.status} \${e.code} \${e.requestId}\`;
  }
  console.log(JSON.stringify({ transcripts: [fromBuffer.transcript, fromBytes.transcript, fromBlob.transcript], score, spoken: spoken.byteLength, code }));
}
void main();
`;

async function startStub(): Promise<typeof stub> {
  const requests: (typeof stub)["requests"] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", contentType: req.headers["content-type"], body });
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_stub" });
      res.end(
        JSON.stringify({
          transcript: "fetched and transcribed",
          language: "sw",
          model_used: "provider_c/stub",
          provider: "provider_c",
          latency_ms: 1,
          audio_duration_seconds: 1,
          audio_content_type: "audio/mpeg",
          requested_provider: "auto",
          fallback_used: false,
          providers_tried: ["provider_c"],
          sandbox: false,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("the packed @lugha/client", () => {
  it("holds only what a user needs: the built library, its declarations for import and require, the CLI, README, LICENSE", () => {
    for (const file of packedFiles) expect(file).toMatch(/^(dist\/[\w.-]+\.(js|cjs|d\.ts|d\.cts)|README\.md|LICENSE|package\.json)$/);
    for (const file of ["index.js", "index.cjs", "index.d.ts", "index.d.cts", "schema.d.ts", "schema.d.cts", "cli.js"])
      expect(packedFiles).toContain(`dist/${file}`);
    expect(packedFiles).toContain("README.md");
    const installed = JSON.parse(readFileSync(path.join(project, "node_modules/@lugha/client/package.json"), "utf8"));
    expect(installed.exports["."]).toEqual({
      import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
      require: { types: "./dist/index.d.cts", default: "./dist/index.cjs" },
    });
    expect(installed.bin).toEqual({ lugha: "dist/cli.js" });
    // The one runtime dependency came from the registry (or its cache), not from the repository.
    expect(existsSync(path.join(project, "node_modules/openapi-fetch/package.json"))).toBe(true);
    expect(existsSync(path.join(project, "node_modules/esbuild"))).toBe(false);
  });

  for (const kind of ["ESM (import)", "CommonJS (require)"] as const) {
    it(`${kind}: every operation against the app, a 429 waited out for Retry-After, typed errors`, async () => {
      const esm = kind.startsWith("ESM");
      const file = path.join(project, esm ? "check.mjs" : "check.cjs");
      const importLine = esm
        ? 'import { readFileSync } from "node:fs";\nimport { Lugha, LughaConnectionError, LughaError } from "@lugha/client";'
        : 'const { readFileSync } = require("node:fs");\nconst { Lugha, LughaConnectionError, LughaError } = require("@lugha/client");';
      writeFileSync(file, SCRIPT.replace("{{IMPORT}}", importLine));
      const apiKey = await mintKey(app.url, `install check ${kind}`);
      const r = ok(await run(process.execPath, [file], { cwd: project, env: { LUGHA_BASE_URL: app.url, LUGHA_API_KEY: apiKey } }), kind);
      const out = JSON.parse(r.stdout);
      expect(out.translate[0]).toMatch(/^\[sandbox/);
      expect(out.translate[1]).toMatch(/^\[sandbox/);
      expect(out.translate[2]).toBe("provider_a");
      expect(out.sleeps.length).toBeGreaterThanOrEqual(1);
      for (const ms of out.sleeps) expect(ms >= 1000 && ms <= 2000 && ms % 1000 === 0).toBe(true);
      expect(out.refused).toMatchObject({ isLughaError: true, name: "LughaError", status: 429, code: "RATE_LIMIT_EXCEEDED" });
      expect(out.refused.requestId).toMatch(/^req_/);
      expect(out.refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(out.batch).toEqual({ succeeded: 1, failed: 1, codes: [null, "UNSUPPORTED_LANGUAGE"] });
      expect(out.detect).toEqual(["en", "lug"]);
      expect(out.transcribe.transcript).toMatch(/^\[sandbox/);
      expect(out.transcribe.content_type).toBe("audio/wav");
      expect(out.speak).toEqual({ riff: "RIFF", content_type: "audio/wav" });
      expect(out.key).toBe(`install check ${kind}`);
      expect(out.languages).toBe(true);
      expect(out.usage).toBe("number");
      expect(out.invalid).toMatchObject({ status: 422, code: "UNSUPPORTED_LANGUAGE" });
      expect(out.unreachable).toEqual({ isConnectionError: true, isLughaError: true, status: 0, code: "CONNECTION_ERROR" });
    });
  }

  it("TypeScript: a typed caller compiles against the installed declarations (ESM and CommonJS, no casts) and runs", async () => {
    const importEsm = 'import { readFileSync } from "node:fs";\nimport { Lugha, LughaError } from "@lugha/client";';
    const importCjs =
      'import { readFileSync } from "node:fs";\nimport lughaClient = require("@lugha/client");\nconst { Lugha, LughaError } = lughaClient;';
    writeFileSync(path.join(project, "typed.mts"), TYPED.replace("{{IMPORT}}", importEsm));
    writeFileSync(path.join(project, "typed.cts"), TYPED.replace("{{IMPORT}}", importCjs));
    for (const file of ["typed.mts", "typed.cts"]) expect(readFileSync(path.join(project, file), "utf8")).not.toMatch(/\bas\b|<[A-Z]\w*>\s*\w/);
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          noEmit: true,
          types: ["node"],
          skipLibCheck: false,
        },
        files: ["typed.mts", "typed.cts"],
      }),
    );
    const tsc = path.join(REPO, "node_modules/typescript/bin/tsc");
    ok(await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }), "tsc on the typed callers");

    // Node runs the ESM one as it is (type stripping; the file is outside node_modules).
    const apiKey = await mintKey(app.url, "typed caller");
    const r = ok(await run(process.execPath, ["typed.mts"], { cwd: project, env: { LUGHA_BASE_URL: app.url, LUGHA_API_KEY: apiKey } }), "typed.mts");
    const out = JSON.parse(r.stdout);
    expect(out.transcripts).toHaveLength(3);
    for (const t of out.transcripts) expect(t).toMatch(/^\[sandbox/);
    expect(out.score).toBeGreaterThan(0.5);
    expect(out.spoken).toBeGreaterThan(44);
    expect(out.code).toMatch(/^422 VALIDATION_ERROR req_/);
  });
});

describe("the lugha command of the installed package", () => {
  let apiKey: string;
  beforeAll(async () => {
    apiKey = await mintKey(app.url, "cli");
  });
  const lugha = (args: string[], env: Record<string, string | undefined> = {}) =>
    run(process.execPath, [path.join(project, "node_modules/.bin/lugha"), ...args], {
      cwd: project,
      env: { LUGHA_BASE_URL: app.url, LUGHA_API_KEY: apiKey, ...env },
    });

  it("runs as the docs say: `npx --no lugha` in the project, `npx --yes --package <tarball> lugha` anywhere", async () => {
    const version = JSON.parse(readFileSync(path.join(CLIENT_DIR, "package.json"), "utf8")).version;
    // The documented commands name the tarball npm pack writes.
    for (const doc of ["docs/guide.md", "clients/typescript/README.md"]) {
      expect(readFileSync(path.join(REPO, doc), "utf8"), doc).toContain(path.basename(tarball));
    }
    // `--` before `--version`, which npx would otherwise answer itself.
    const installed = await npx(["--offline", "--no", "--", "lugha", "--version"], project);
    expect(installed, installed.stderr).toMatchObject({ code: 0 });
    expect(installed.stdout.trim()).toBe(version);
    const elsewhere = mkdtempSync(path.join(tmpdir(), "lugha-npx-"));
    try {
      const fromTarball = await npx(["--prefer-offline", "--yes", "--package", tarball, "--", "lugha", "--version"], elsewhere);
      expect(fromTarball, fromTarball.stderr).toMatchObject({ code: 0 });
      expect(fromTarball.stdout.trim()).toBe(version);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const help = await lugha(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["translate", "detect", "speak", "transcribe", "usage"]) expect(help.stdout).toContain(`  ${command}`);
    expect(help.stdout).toMatch(/Exit codes: 0 ok, 1 API error, 2 usage error/);
  });

  it("translate: the text on stdout, the sandbox note on stderr; --json prints the response", async () => {
    const plain = await lugha(["translate", "Good morning", "--to", "lug", "--from", "en"]);
    expect(plain).toMatchObject({ code: 0 });
    expect(plain.stdout).toMatch(/^\[sandbox[^\n]*\n$/);
    expect(plain.stderr).toMatch(/sandbox emulator/);
    const json = await lugha(["translate", "Thank you", "--to", "tw", "--provider", "provider_b", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ target_lang: "tw", provider: "provider_b", requested_provider: "provider_b", sandbox: true });
  });

  it("detect, usage", async () => {
    const detect = await lugha(["detect", "Good morning, how are you today?"]);
    expect(detect.code, detect.stderr).toBe(0);
    expect(detect.stdout).toMatch(/^en\t\d\.\d\d\t/);
    const usage = await lugha(["usage", "--group-by", "endpoint"]);
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.stdout).toMatch(/^endpoint +requests/);
    expect(usage.stdout).toMatch(/POST \/api\/v1\/translate/);
    expect(usage.stdout).toMatch(/\ntotal +\d+/);
  });

  it("transcribe a file; speak into a file", async () => {
    const stt = await lugha(["transcribe", "speech.wav", "--lang", "en"]);
    expect(stt.code, stt.stderr).toBe(0);
    expect(stt.stdout).toMatch(/^\[sandbox/);
    const sttJson = await lugha(["transcribe", "speech.wav", "--lang", "en", "--json"]);
    expect(JSON.parse(sttJson.stdout)).toMatchObject({ language: "en", audio_content_type: "audio/wav" });

    const tts = await lugha(["speak", "Oli otya", "--lang", "lug", "--out", "hello.wav"]);
    expect(tts.code, tts.stderr).toBe(0);
    expect(tts.stderr).toMatch(/wrote \d+ bytes of audio\/wav/);
    const wav = readFileSync(path.join(project, "hello.wav"));
    expect(wav.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(wav.subarray(8, 12).toString("latin1")).toBe("WAVE");
  });

  it("transcribe --url sends {audio_url, language} as JSON", async () => {
    const r = await lugha(["transcribe", "--url", "https://audio.example/greeting.mp3", "--lang", "sw"], { LUGHA_BASE_URL: stub.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("fetched and transcribed");
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]).toMatchObject({ method: "POST", url: "/api/v1/speech/stt", contentType: "application/json" });
    expect(JSON.parse(stub.requests[0].body)).toEqual({ audio_url: "https://audio.example/greeting.mp3", language: "sw" });
  });

  it("exit codes: 1 API error, 2 usage error, 3 unreachable, 4 no key or a refused key; messages on stderr", async () => {
    const api = await lugha(["translate", "Hello", "--to", "xx-unknown"]);
    expect(api.code).toBe(1);
    expect(api.stdout).toBe("");
    expect(api.stderr).toMatch(/422 UNSUPPORTED_LANGUAGE: .*\(request req_/);
    const apiJson = await lugha(["translate", "Hello", "--to", "xx-unknown", "--json"]);
    expect(apiJson.code).toBe(1);
    expect(JSON.parse(apiJson.stdout).detail.code).toBe("UNSUPPORTED_LANGUAGE");

    for (const args of [
      ["translate", "Hello"],
      ["translate", "Hello", "--to", "lug", "--bogus"],
      ["speak", "hi", "--lang", "lug"],
      ["frobnicate"],
      ["transcribe", "missing.wav", "--lang", "en"],
    ]) {
      const r = await lugha(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).not.toBe("");
    }
    const unreachable = await lugha(["detect", "hello"], { LUGHA_BASE_URL: "http://127.0.0.1:1" });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:1/);

    const noKey = await lugha(["detect", "hello"], { LUGHA_API_KEY: undefined });
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toMatch(/LUGHA_API_KEY is not set/);
    const badKey = await lugha(["detect", "hello"], { LUGHA_API_KEY: `svc_${"0".repeat(40)}` });
    expect(badKey.code).toBe(4);
    expect(badKey.stderr).toMatch(/401 INVALID_API_KEY/);
  });
});
