import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "./src/cli/main";
import { Lugha, LughaConnectionError, LughaError } from "./src/index";

/** The Lugha class and the CLI against a scripted fetch (the same against the built app: e2e/clients/). */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

function scripted(answers: Answer[]) {
  const seen: Request[] = [];
  const bodies: (string | FormData)[] = [];
  const sleeps: number[] = [];
  const transport = {
    fetch: async (request: Request) => {
      seen.push(request);
      bodies.push((request.headers.get("content-type") ?? "").startsWith("multipart/") ? await request.formData() : await request.text());
      const next = answers[Math.min(seen.length - 1, answers.length - 1)];
      if (next instanceof Error) throw next;
      return new Response(next.body === undefined ? null : typeof next.body === "string" ? next.body : JSON.stringify(next.body), {
        status: next.status,
        headers: { "content-type": "application/json", ...next.headers },
      });
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
  };
  const lugha = new Lugha({ apiKey: "svc_test", baseUrl: "http://lugha.test/", ...transport });
  return { lugha, seen, bodies, sleeps, transport };
}

const envelope = (code: string, extra: Record<string, unknown> = {}) => ({
  detail: { code, message: `${code} happened`, request_id: "req_123", ...extra },
});

describe("Lugha", () => {
  it("transcribe builds the multipart form from bytes: audio, its file name, language, provider", async () => {
    const s = scripted([{ status: 200, body: { transcript: "ok" } }]);
    const result = await s.lugha.transcribe({ audio: new Uint8Array([82, 73, 70, 70]), filename: "a.wav", language: "lug", provider: "provider_a" });
    expect(result.transcript).toBe("ok");
    expect(s.seen[0].url).toBe("http://lugha.test/api/v1/speech/stt");
    expect(s.seen[0].headers.get("authorization")).toBe("Bearer svc_test");
    const form = s.bodies[0] as FormData;
    const audio = form.get("audio") as File;
    expect(audio.name).toBe("a.wav");
    expect([...new Uint8Array(await audio.arrayBuffer())]).toEqual([82, 73, 70, 70]);
    expect(form.get("language")).toBe("lug");
    expect(form.get("provider")).toBe("provider_a");
  });

  it("transcribe with audioUrl sends JSON {audio_url, language}", async () => {
    const s = scripted([{ status: 200, body: { transcript: "ok" } }]);
    await s.lugha.transcribe({ audioUrl: "https://audio.example/a.mp3", language: "sw" });
    expect(s.seen[0].headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(s.bodies[0] as string)).toEqual({ audio_url: "https://audio.example/a.mp3", language: "sw" });
  });

  it("speak decodes audio_base64; detect sends text or texts; query parameters are set, undefined ones left out", async () => {
    const s = scripted([{ status: 200, body: { audio_base64: btoa("RIFF1234WAVE"), content_type: "audio/wav" } }]);
    const spoken = await s.lugha.speak({ text: "Oli otya", language: "lug" });
    expect(new TextDecoder().decode(spoken.audio)).toBe("RIFF1234WAVE");
    const d = scripted([{ status: 200, body: { results: [] } }]);
    await d.lugha.detect("one");
    await d.lugha.detect(["one", "two"]);
    await d.lugha.usage({ group_by: "endpoint", from: undefined });
    await d.lugha.requests({ status: "4xx", per_page: "20" });
    expect(d.bodies.slice(0, 2).map((b) => JSON.parse(b as string))).toEqual([{ text: "one" }, { texts: ["one", "two"] }]);
    expect(d.seen[2].url).toBe("http://lugha.test/api/v1/usage?group_by=endpoint");
    expect(d.seen[3].url).toBe("http://lugha.test/api/v1/usage/requests?status=4xx&per_page=20");
  });

  it("an error answer throws LughaError with status, code, message, request id, field errors and Retry-After", async () => {
    const s = scripted([
      { status: 422, body: envelope("VALIDATION_ERROR", { errors: [{ loc: ["body", "text"], msg: "Field required", type: "missing" }] }) },
    ]);
    const err = await s.lugha.translate({ text: "", target_lang: "lug" }).catch((e) => e);
    expect(err).toBeInstanceOf(LughaError);
    expect(err).toMatchObject({
      status: 422,
      code: "VALIDATION_ERROR",
      message: "VALIDATION_ERROR happened",
      requestId: "req_123",
      retryAfter: null,
    });
    expect(err.errors).toEqual([{ loc: ["body", "text"], msg: "Field required", type: "missing" }]);

    const long = scripted([{ status: 429, body: envelope("RATE_LIMIT_EXCEEDED"), headers: { "retry-after": "3600" } }]);
    const limited = await long.lugha.translate({ text: "Hi", target_lang: "lug" }).catch((e) => e);
    expect(limited).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED", retryAfter: 3600 });
    expect(long.sleeps).toEqual([]); // over maxWaitSeconds: thrown at once
  });

  it("a 429 then a 503 are waited out for their Retry-After; the body is sent again each time", async () => {
    const s = scripted([
      { status: 429, body: envelope("RATE_LIMIT_EXCEEDED"), headers: { "retry-after": "2" } },
      { status: 503, body: envelope("PROVIDER_ERROR"), headers: { "retry-after": "1" } },
      { status: 200, body: { translated_text: "ok" } },
    ]);
    expect((await s.lugha.translate({ text: "Hi", target_lang: "lug" })).translated_text).toBe("ok");
    expect(s.sleeps).toEqual([2000, 1000]);
    expect(s.bodies).toEqual(Array(3).fill(JSON.stringify({ text: "Hi", target_lang: "lug" })));
  });

  it("no server, or a body that is not JSON: LughaConnectionError, INVALID_RESPONSE, HTTP_<status>", async () => {
    const down = scripted([Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } })]);
    const refused = await down.lugha.detect("x").catch((e) => e);
    expect(refused).toBeInstanceOf(LughaConnectionError);
    expect(refused).toMatchObject({ status: 0, code: "CONNECTION_ERROR", message: "could not reach http://lugha.test: ECONNREFUSED" });
    const slow = scripted([new DOMException("The operation timed out.", "TimeoutError")]);
    expect(await slow.lugha.detect("x").catch((e) => e)).toMatchObject({ code: "TIMEOUT", status: 0 });
    const html = scripted([{ status: 200, body: "<html>" }]);
    expect(await html.lugha.detect("x").catch((e) => e)).toMatchObject({ status: 200, code: "INVALID_RESPONSE" });
    const proxy = scripted([{ status: 502, body: "Bad gateway" }]);
    expect(await proxy.lugha.detect("x").catch((e) => e)).toMatchObject({ status: 502, code: "HTTP_502" });
  });

  it("a slow attempt is cut off after timeoutMs", async () => {
    const lugha = new Lugha({
      baseUrl: "http://lugha.test",
      timeoutMs: 50,
      fetch: (request) => new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason))),
    });
    expect(await lugha.health().catch((e) => e)).toMatchObject({ name: "LughaConnectionError", code: "TIMEOUT" });
  });
});

describe("lugha CLI (main)", () => {
  async function cli(argv: string[], answers: Answer[], env: Record<string, string | undefined> = { LUGHA_API_KEY: "svc_test" }) {
    const s = scripted(answers);
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, {
      env: { LUGHA_BASE_URL: "http://lugha.test", ...env },
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      writeStdout: async () => {},
      readStdin: async () => "from stdin\n",
      transport: s.transport,
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n"), seen: s.seen, bodies: s.bodies };
  }

  it("translate: arguments into the request, the text out; - reads standard input", async () => {
    const r = await cli(
      ["translate", "-", "--to", "lug", "--from", "en", "--provider", "provider_a", "--no-cache"],
      [{ status: 200, body: { translated_text: "Wasuze otya", sandbox: false } }],
    );
    expect(r).toMatchObject({ code: 0, stdout: "Wasuze otya", stderr: "" });
    expect(JSON.parse(r.bodies[0] as string)).toEqual({ text: "from stdin", target_lang: "lug", source_lang: "en", provider: "provider_a" });
    expect(r.seen[0].headers.get("cache-control")).toBe("no-cache");
  });

  it("exit codes: 2 for the command line (before the key is looked at), 4 without a key or for a 401, 1 for an API error, 3 for the network", async () => {
    expect((await cli(["translate", "hi"], [], {})).code).toBe(2);
    expect((await cli(["translate", "hi", "--to", "lug", "--provider", "nobody"], [])).code).toBe(2);
    expect((await cli(["usage", "--group-by", "week"], [])).code).toBe(2);
    expect((await cli([], [])).code).toBe(2);
    expect((await cli(["translate", "hi", "--to", "lug"], [], {})).code).toBe(4);
    expect((await cli(["key"], [{ status: 401, body: envelope("INVALID_API_KEY") }])).code).toBe(4);
    const api = await cli(["detect", "hi", "--json"], [{ status: 503, body: envelope("PROVIDER_ERROR") }]);
    expect(api.code).toBe(1);
    expect(JSON.parse(api.stdout).detail.code).toBe("PROVIDER_ERROR");
    expect(api.stderr).toMatch(/503 PROVIDER_ERROR: PROVIDER_ERROR happened \(request req_123\)/);
    expect((await cli(["detect", "hi"], [new TypeError("fetch failed")])).code).toBe(3);
    // A field error the message already states is printed once; the others are listed under it.
    const invalid = await cli(
      ["translate", "hi", "--to", "lug"],
      [
        {
          status: 422,
          body: {
            detail: {
              code: "VALIDATION_ERROR",
              message: "Invalid request: body.text: Field required",
              request_id: "req_1",
              errors: [
                { loc: ["body", "text"], msg: "Field required", type: "missing" },
                { loc: ["body", "format"], msg: "Invalid option", type: "invalid_value" },
              ],
            },
          },
        },
      ],
    );
    expect(invalid.stderr).toBe(
      "lugha translate: 422 VALIDATION_ERROR: Invalid request: body.text: Field required (request req_1)\n  body.format: Invalid option",
    );
    expect((await cli(["detect", "hi"], [{ status: 404, body: "<html>not here</html>" }])).code).toBe(3);
  });

  it("catalog: waits for the budget as the server says, continues from the written file with its source hashes, exits 0 when done, 5 when entries failed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lugha-cli-"));
    try {
      writeFileSync(join(dir, "en.json"), '{"a": "Hello", "b": "Bye"}');
      const entries = (translated: number, pending: number, failed: { key: string; error: string }[] = []) => ({
        total: 2,
        translated,
        kept: 2 - translated - pending - failed.length,
        pending,
        failed,
      });
      const answer = (content: string, e: ReturnType<typeof entries>, retry: number | null) => ({
        status: 200,
        body: {
          format: "json",
          content,
          entries: e,
          upstream_calls: 1,
          characters_translated: 5,
          source_hashes: { "/a": "abc" },
          retry_after_seconds: retry,
          sandbox: false,
        },
      });
      const r = await cli(
        ["catalog", join(dir, "en.json"), "--to", "lug"],
        [answer('{"a": "A", "b": "Bye"}', entries(1, 1), 7), answer('{"a": "A", "b": "B"}', { ...entries(1, 0), kept: 1 }, null)],
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/lug\s+\[#+-+\] 1\/2 {2}1 pending/);
      expect(r.stderr).toMatch(/budget is spent for now; waiting 7 s/);
      expect(r.stdout).toMatch(/^lug\t.*lug\.json\ttranslated 1, kept 1, pending 0, failed 0, upstream calls 2$/);
      const second = JSON.parse(r.bodies[1] as string);
      expect(second).toMatchObject({
        format: "json",
        source_lang: "en",
        target_lang: "lug",
        existing: '{"a": "A", "b": "Bye"}',
        source_hashes: { "/a": "abc" },
      });
      expect(readFileSync(join(dir, "lug.json"), "utf8")).toBe('{"a": "A", "b": "B"}');
      expect(JSON.parse(readFileSync(join(dir, "lug.json.lugha.json"), "utf8"))).toEqual({ source_hashes: { "/a": "abc" } });

      const failed = await cli(["catalog", join(dir, "en.json"), "--to", "ach"], [answer("{}", entries(1, 0, [{ key: "/b", error: "no" }]), null)]);
      expect(failed.code).toBe(5);
      expect(failed.stdout).toMatch(/failed \/b: no/);
      expect((await cli(["catalog", join(dir, "notes.txt"), "--to", "lug"], [])).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--help and --version exit 0 on stdout; every command has help", async () => {
    expect(await cli(["--help"], [])).toMatchObject({ code: 0, stderr: "" });
    expect((await cli(["--version"], [])).stdout).toMatch(/^\d+\.\d+\.\d+/);
    for (const command of ["translate", "detect", "speak", "transcribe", "usage", "languages", "catalog", "key"]) {
      const r = await cli([command, "--help"], [], {});
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: lugha ${command}`));
    }
  });
});
