import { execFile } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileTranslation } from "@/lib/providers/sandbox";
import { call, mintKey } from "../support/api";
import { COLD_START_MS, type RunningApp, startApp, stopAllApps } from "../support/app";
import { audioFixtures } from "../support/audio";

/**
 * The MCP server (/mcp) driven by the MCP SDK's own client, unmodified (Client + StreamableHTTPClientTransport, the key
 * as its Bearer header), on the current protocol revision and on the 2025 handshake; then the conformance suite's
 * server scenarios that apply to it (@modelcontextprotocol/conformance).
 */
let app: RunningApp;
let media: http.Server;
let mediaUrl: string;
let key: string;

beforeAll(async () => {
  const { files } = await audioFixtures();
  media = http.createServer((req, res) => {
    if (req.url !== "/speech.wav") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "audio/wav" }).end(Buffer.from(files.wav.bytes));
  });
  media.listen(0, "127.0.0.1");
  await once(media, "listening");
  mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  app = await startApp({
    env: { AUDIO_URL_ALLOWED_HOSTS: new URL(mediaUrl).host, RATE_LIMIT_TRANSLATE: "4/60s", RATE_LIMIT_DEFAULT: "1000/60s" },
    readyTimeoutMs: COLD_START_MS,
  });
  key = await mintKey(app.url, "mcp");
});
afterAll(async () => {
  await stopAllApps();
  media?.close();
});

async function connect(bearer: string | undefined, version: "2026-07-28" | "2025" = "2026-07-28") {
  const client = new Client({ name: "lugha-test", version: "1.0.0" }, version === "2025" ? {} : { versionNegotiation: { mode: { pin: version } } });
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers } }));
  return client;
}

const TOOLS = ["detect_language", "list_languages", "speak", "transcribe", "translate", "translate_batch"];

describe("the MCP SDK's client", () => {
  it("connects on the current revision and lists every tool with the JSON Schema of its REST twin", async () => {
    const client = await connect(key);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerVersion()?.name).toBe("lugha");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const translate = tools.find((t) => t.name === "translate")!;
    expect(translate.inputSchema).toMatchObject({ type: "object", required: expect.arrayContaining(["text", "target_lang"]) });
    expect(Object.keys(translate.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["text", "target_lang", "source_lang", "format"]));
    const transcribe = tools.find((t) => t.name === "transcribe")!;
    expect(transcribe.inputSchema.required).toEqual(expect.arrayContaining(["audio_url", "language"]));
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
    expect(Object.keys(translate.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(["translated_text", "provider", "sandbox"]));
    await client.close();
  });

  it("calls every tool with structured results and the sandbox marker; speak answers with an audio block", async () => {
    const client = await connect(key);
    const translated = await client.callTool({ name: "translate", arguments: { text: "Good morning", source_lang: "en", target_lang: "lug" } });
    expect(translated.isError).toBeFalsy();
    expect(translated.structuredContent).toMatchObject({ target_lang: "lug", provider: "provider_a", sandbox: true });
    expect(String((translated.structuredContent as { translated_text?: string }).translated_text)).toContain(hostileTranslation("Good morning"));
    expect(JSON.parse((translated.content as { text: string }[])[0].text)).toEqual(translated.structuredContent);

    const batch = await client.callTool({
      name: "translate_batch",
      arguments: {
        items: [
          { id: "a", text: "Thank you", source_lang: "en", target_lang: "sw" },
          { id: "b", text: "Hi", target_lang: MARKER },
        ],
      },
    });
    expect(batch.structuredContent).toMatchObject({ total: 2, succeeded: 1, failed: 1 });

    const detected = await client.callTool({ name: "detect_language", arguments: { text: "Habari yako rafiki?" } });
    expect(detected.structuredContent).toMatchObject({ results: [{ language: "sw" }] });

    const languages = await client.callTool({ name: "list_languages", arguments: { capability: "tts" } });
    expect((languages.structuredContent as { languages: unknown[] }).languages.length).toBeGreaterThan(0);

    const heard = await client.callTool({ name: "transcribe", arguments: { audio_url: `${mediaUrl}/speech.wav`, language: "sw" } });
    expect(heard.isError, JSON.stringify(heard.content)).toBeFalsy();
    expect(heard.structuredContent).toMatchObject({ language: "sw", sandbox: true, audio_content_type: "audio/wav" });
    expect(String((heard.structuredContent as { text?: string }).text).length).toBeGreaterThan(0);

    const spoken = await client.callTool({ name: "speak", arguments: { text: "Webale nyo", language: "lug", format: "wav" } });
    const audio = (spoken.content as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === "audio")!;
    expect(audio.mimeType).toBe("audio/wav");
    expect(Buffer.from(audio.data!, "base64").subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(spoken.structuredContent).toMatchObject({ language: "lug", sandbox: true, content_type: "audio/wav" });
    await client.close();
  });

  it("works for a 2025-era client too (initialize handshake, stateless)", async () => {
    const client = await connect(key, "2025");
    expect(client.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
    const result = await client.callTool({ name: "translate", arguments: { text: "Thank you", source_lang: "en", target_lang: "yo" } });
    expect(result.structuredContent).toMatchObject({ target_lang: "yo", sandbox: true });
    await client.close();
  });
});

const MARKER = "EchoCanaryQ7x";

describe("errors", () => {
  it("a refused call is a tool result with isError, the API's code and message, and no trace of the input", async () => {
    const client = await connect(key);
    const attempts = [
      { name: "translate", arguments: { text: MARKER, target_lang: MARKER } },
      { name: "translate", arguments: { text: { [MARKER]: 1 }, target_lang: "sw" } },
      { name: "detect_language", arguments: { text: "   " } },
      { name: "transcribe", arguments: { audio_url: `http://169.254.169.254/${MARKER}.wav`, language: "sw" } },
      { name: "speak", arguments: { text: "Hello", language: "en", voice: MARKER } },
    ];
    const codes: string[] = [];
    for (const attempt of attempts) {
      const result = await client.callTool(attempt);
      expect(result.isError, attempt.name).toBe(true);
      const detail = (result.structuredContent as { detail: { code: string; message: string; request_id: string } }).detail;
      expect(detail.message.length).toBeGreaterThan(0);
      expect((result.content as { text: string }[])[0].text).toBe(`${detail.code}: ${detail.message}`);
      expect(JSON.stringify(result).toLowerCase()).not.toContain("echocanary");
      codes.push(detail.code);
    }
    expect(codes).toEqual(["UNSUPPORTED_LANGUAGE", "VALIDATION_ERROR", "VALIDATION_ERROR", "VALIDATION_ERROR", "UNSUPPORTED_VOICE"]);
    // A tool that does not exist is a protocol error (invalid params) naming the tools there are, not the one sent.
    const unknown = await client.callTool({ name: MARKER, arguments: {} }).catch((e: Error) => e);
    expect(unknown).toBeInstanceOf(Error);
    expect((unknown as Error).message).toContain("translate_batch");
    expect((unknown as Error).message.toLowerCase()).not.toContain("echocanary");
    await client.close();
  });

  it("without a key: 401 with WWW-Authenticate, and the SDK's client cannot connect", async () => {
    const res = await fetch(`${app.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { data: { code: "MISSING_API_KEY" } } });
    await expect(connect(undefined)).rejects.toThrow();
    await expect(connect(`svc_${MARKER}`)).rejects.toThrow();
  });

  it("a foreign Origin or Host is refused with 403 before the key is read", async () => {
    const message = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` };
    const foreign = await fetch(`${app.url}/mcp`, { method: "POST", headers: { ...headers, origin: `https://${MARKER}.example` }, body: message });
    expect(foreign.status).toBe(403);
    expect((await foreign.text()).toLowerCase()).not.toContain("echocanary");
    const local = await fetch(`${app.url}/mcp`, { method: "POST", headers: { ...headers, origin: "http://localhost:6274" }, body: message });
    expect(local.status).toBe(200);
    const rebound = await rawPost(`${MARKER}.example`, message, headers);
    expect(rebound.status).toBe(403);
    expect(rebound.body.toLowerCase()).not.toContain("echocanary");
  });
});

describe("the same limits, usage and request log as the REST twins", () => {
  it("a translate call spends the translate bucket, and each tool call shows in usage and the request log", async () => {
    const own = await mintKey(app.url, "mcp usage");
    const client = await connect(own);
    for (let i = 0; i < 3; i++) {
      const ok = await client.callTool({ name: "translate", arguments: { text: `Good morning ${i}`, source_lang: "en", target_lang: "sw" } });
      expect(ok.isError).toBeFalsy();
    }
    expect(
      (await call(app.url, "POST", "/api/v1/translate", { key: own, json: { text: "Hi there", source_lang: "en", target_lang: "sw" } })).status,
    ).toBe(200);
    const refused = await client
      .callTool({ name: "translate", arguments: { text: "One more", source_lang: "en", target_lang: "sw" } })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(Error);
    expect({ status: refused.status, message: refused.message }).toMatchObject({
      status: 429,
      message: expect.stringContaining("RATE_LIMIT_EXCEEDED"),
    });
    await client.callTool({ name: "speak", arguments: { text: "Hello", language: "en", voice: MARKER } });
    await client.close();

    const usage = await call(app.url, "GET", "/api/v1/usage?group_by=endpoint", { key: own });
    const rows = new Map((usage.body.rows as { endpoint: string; requests: number; characters: number }[]).map((r) => [r.endpoint, r]));
    expect(rows.get("POST /mcp translate")).toMatchObject({ requests: 3, characters: "Good morning 0".length * 3 });
    const log = await call(app.url, "GET", "/api/v1/usage/requests", { key: own });
    const lines = log.body.requests as { endpoint: string; status: number; provider: string | null }[];
    expect(lines.filter((l) => l.endpoint === "POST /mcp translate").map((l) => l.status)).toEqual([200, 200, 200]);
    expect(lines.find((l) => l.endpoint === "POST /mcp speak")?.status).toBe(422);
    expect(lines.find((l) => l.endpoint === "POST /mcp" && l.status === 429)).toBeDefined();
  });
});

/** A POST whose Host header is not the server's own (what a DNS-rebinding page sends): fetch does not let one set Host. */
function rawPost(host: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}/mcp`, { method: "POST", headers: { ...headers, host } }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the conformance suite (@modelcontextprotocol/conformance)", () => {
  /**
   * Its client sends no Authorization header (its server scenarios assume a server without one), so it reaches the app
   * through a relay that adds the key and changes nothing else (Host and Origin pass as sent).
   */
  let relay: http.Server;
  let relayUrl: string;
  beforeAll(async () => {
    relay = http.createServer((req, res) => {
      const upstream = http.request(
        `${app.url}${req.url}`,
        { method: req.method, headers: { ...req.headers, authorization: `Bearer ${key}` } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    relay.listen(0, "127.0.0.1");
    await once(relay, "listening");
    relayUrl = `http://localhost:${(relay.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => relay?.close());

  it.each(["server-initialize", "ping", "tools-list", "dns-rebinding-protection"])("passes %s", async (scenario) => {
    const bin = path.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    const run = await promisify(execFile)(process.execPath, [bin, "server", "--url", relayUrl, "--scenario", scenario], { timeout: 60_000 }).catch(
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ ...err, failed: true }),
    );
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    expect("failed" in run, output).toBe(false);
    expect(output).toMatch(/Passed:\s*\d+\/\d+/);
    expect(output).not.toMatch(/FAILURE|Failed:\s*[1-9]/);
  });
});
