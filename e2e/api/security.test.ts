import { createHmac } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, type JsonResponse, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp, stopAllApps } from "../support/app";
import { describeOn, itOn } from "../support/projects";

/**
 * The security pass (docs/security.md), over HTTP against the production build:
 *  - no API key, key hash or secret (provider credentials, API_KEY_HASH_SECRET, NEXTAUTH_SECRET) in any response or log line
 *  - byte limits on every route that takes a body, enforced while reading; JSON nesting and size limits
 *  - header injection: nothing the client sends is reflected into a response header unchecked
 *  - CORS: the API for any origin without credentials (preflight answered); the portal same-origin only
 *  - security headers on pages, with a nonce-based CSP under which /docs (Swagger UI) still loads its scripts
 *  - the key-issuance throttle keys on an address the client cannot choose
 *  - no oracle: every unusable key is refused identically
 *  - misconfiguration on Vercel (no PostgreSQL) fails clearly, not silently on an ephemeral database
 */

afterAll(stopAllApps);

const SECRETS = {
  SUNBIRD_API_TOKEN: "sunbird-token-5f2b9c1e7a4d",
  KHAYA_API_KEY: "khaya-subscription-9d8e7f6a5b4c",
  HF_TOKEN: "hf_SecretHuggingFaceToken0123456789",
  API_KEY_HASH_SECRET: "hash-pepper-3c4d5e6f7a8b9c0d",
  NEXTAUTH_SECRET: "nextauth-secret-1a2b3c4d5e6f7a8b",
};

describe("secrets never leave: responses and logs", () => {
  let ups: EmulatorServer[];
  let app: RunningApp;
  const seen: JsonResponse[] = [];
  const record = async (p: Promise<JsonResponse>) => {
    const r = await p;
    seen.push(r);
    return r;
  };

  beforeAll(async () => {
    ups = await Promise.all([
      startEmulatorServer("sunbird", { credential: SECRETS.SUNBIRD_API_TOKEN }),
      startEmulatorServer("khaya", { credential: SECRETS.KHAYA_API_KEY }),
      // provider_c's emulator expects another token: every call to it is an auth failure (an error path with logs).
      startEmulatorServer("hf", { credential: "hf_a-different-token" }),
    ]);
    app = await startApp({
      env: {
        ...SECRETS,
        PROVIDER_MODE: "live",
        SUNBIRD_API_URL: ups[0].url,
        KHAYA_API_URL: ups[1].url,
        HF_API_URL: ups[2].url,
        TRANSLATE_DEADLINE_MS: "3000",
        // Every request reaches the upstream, so each error path below really runs (a cache hit would skip it).
        TRANSLATION_CACHE: "off",
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
  });

  it("are absent from every response body and header and from the server's output, across success and error paths", async () => {
    const issued = await record(call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "secret keeper" } }));
    const key: string = issued.body.api_key;
    const other = await mintKey(app.url, "other");
    const T = { text: "Good morning", source_lang: "en", target_lang: "lug" };

    await record(call(app.url, "GET", "/api/v1/auth/keys/me", { key }));
    await record(call(app.url, "POST", "/api/v1/translate", { key, json: T })); // provider_a, authenticated upstream
    await record(call(app.url, "POST", "/api/v1/translate", { key, json: { ...T, target_lang: "tw" } })); // provider_b
    await record(call(app.url, "POST", "/api/v1/translate", { key, json: { ...T, target_lang: "sw" } })); // provider_c: 401 upstream → 503
    ups[0].setControls({ failMode: "status", status: 500 });
    await record(call(app.url, "POST", "/api/v1/translate", { key, json: { ...T, provider: "provider_a" } }));
    ups[0].setControls({ failMode: "status", status: 401 });
    await record(call(app.url, "POST", "/api/v1/translate", { key, json: T }));
    ups[0].reset();
    await record(
      call(app.url, "POST", "/api/v1/translate/batch", {
        key,
        json: {
          items: [
            { id: "1", ...T },
            { id: "2", ...T, target_lang: "sw" },
          ],
        },
      }),
    );
    await record(call(app.url, "GET", "/api/v1/languages", { key }));
    await record(call(app.url, "GET", "/api/v1/openapi.json"));
    await record(call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS }));
    // Wrong keys of every kind, a key in the URL, in another scheme, on an unauthenticated route.
    await record(call(app.url, "GET", "/api/v1/auth/keys/me", { headers: { authorization: `Bearer ${key.slice(0, -1)}0` } }));
    await record(call(app.url, "GET", "/api/v1/auth/keys/me", { headers: { authorization: `Basic ${Buffer.from(`u:${key}`).toString("base64")}` } }));
    await record(call(app.url, "GET", `/api/v1/nowhere?api_key=${key}`));
    await record(call(app.url, "POST", "/api/v1/auth/keys", { key, json: { name: "x".repeat(200) } }));
    await record(call(app.url, "POST", "/api/v1/translate", { key, body: `{"text": "${key}"`, headers: { "content-type": "application/json" } }));
    await record(call(app.url, "DELETE", "/api/v1/auth/keys/me", { key: other }));
    await record(call(app.url, "GET", "/api/v1/auth/keys/me", { key: other })); // revoked
    await record(call(app.url, "GET", "/", {}));

    const hash = (k: string) => createHmac("sha256", SECRETS.API_KEY_HASH_SECRET).update(k).digest("hex");
    const forbidden: [string, string][] = [
      ...Object.entries(SECRETS),
      ["other key", other],
      ["other key's random part", other.slice(4)],
      ["key hash", hash(key)],
      ["other key hash", hash(other)],
    ];
    for (const r of seen) {
      const all = `${r.status}\n${[...r.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${r.text}`;
      for (const [what, value] of forbidden) expect(all.includes(value), `${what} in a response: ${all.slice(0, 300)}`).toBe(false);
      // The issued key appears once: in its issuance response, nowhere else.
      if (r !== issued) expect(all.includes(key.slice(4)), `the API key in a response: ${all.slice(0, 300)}`).toBe(false);
    }
    await app.stop(); // flushes everything the server had to say
    const logs = app.logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const [what, value] of [...forbidden, ["issued key", key.slice(4)] as [string, string]]) {
      expect(logs.includes(value), `${what} in the server output`).toBe(false);
    }
    // The upstream calls did carry the credentials (so their absence above means something).
    expect(ups[0].stats.recent.some((r) => Object.values(r.headers).join(" ").includes(SECRETS.SUNBIRD_API_TOKEN))).toBe(true);
  });
});

describe("body and JSON limits", () => {
  let app: RunningApp;
  let key: string;
  beforeAll(async () => {
    app = await startApp({
      env: { RATE_LIMIT_TRANSLATE: "1000/60s", RATE_LIMIT_BATCH: "1000/60s", RATE_LIMIT_TTS: "1000/60s", RATE_LIMIT_STT: "1000/60s" },
    });
    key = await mintKey(app.url, "limits");
  });

  /** A body streamed in chunks without Content-Length, so only the server's own counting can stop it. */
  function chunked(totalBytes: number, prefix = '{"text":"'): ReadableStream<Uint8Array> {
    let sent = 0;
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    return new ReadableStream({
      pull(c) {
        if (sent === 0) {
          c.enqueue(new TextEncoder().encode(prefix));
          sent += prefix.length;
        } else if (sent < totalBytes) {
          c.enqueue(chunk);
          sent += chunk.byteLength;
        } else c.close();
      },
    });
  }

  // Every route that reads a body, with its documented limit.
  const ROUTES: { path: string; limit: number; auth: boolean; contentType: string }[] = [
    { path: "/api/v1/auth/keys", limit: 16 * 1024, auth: false, contentType: "application/json" },
    { path: "/api/v1/translate", limit: 64 * 1024, auth: true, contentType: "application/json" },
    { path: "/api/v1/translate/batch", limit: 4 * 1024 * 1024, auth: true, contentType: "application/json" },
    { path: "/api/v1/speech/tts", limit: 64 * 1024, auth: true, contentType: "application/json" },
    // 10 MB of audio plus 64 kB for the multipart framing and the other fields (lib/speech/limits.ts)
    { path: "/api/v1/speech/stt", limit: 10 * 1024 * 1024 + 64 * 1024, auth: true, contentType: "multipart/form-data; boundary=x" },
    { path: "/api/auth/callback/api-key", limit: 16 * 1024, auth: false, contentType: "application/x-www-form-urlencoded" },
  ];

  it.each(ROUTES)("$path: 413 for a declared Content-Length over $limit bytes, before reading it", async ({ path, limit, auth, contentType }) => {
    // A raw request that declares the size and sends almost nothing: answered at once, not after a 60 s wait.
    const res = await rawRequest(
      app.port,
      [
        `POST ${path} HTTP/1.1`,
        `Host: 127.0.0.1`,
        ...(auth ? [`Authorization: Bearer ${key}`] : []),
        `Content-Type: ${contentType}`,
        `Content-Length: ${limit + 1}`,
        "Connection: close",
        "",
        "{",
      ].join("\r\n"),
    );
    expect(res.status).toBe(413);
    expect(res.body).toContain("PAYLOAD_TOO_LARGE");
  });

  it.each(ROUTES)("$path: 413 for a chunked body without Content-Length once it passes $limit bytes", async ({ path, limit, auth, contentType }) => {
    const res = await fetch(app.url + path, {
      method: "POST",
      headers: { "content-type": contentType, ...(auth ? { authorization: `Bearer ${key}` } : {}) },
      body: chunked(
        limit * 3,
        contentType.startsWith("multipart") ? '--x\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\n' : '{"text":"',
      ),
      duplex: "half",
    } as RequestInit).catch((err: Error) => err);
    // The server answers 413 and stops reading; depending on timing the client sees the 413 or a reset socket.
    if (res instanceof Error) expect(String(res.cause ?? res)).toMatch(/reset|closed|EPIPE|socket|terminated/i);
    else {
      expect(res.status).toBe(413);
      expect(await res.text()).toContain("PAYLOAD_TOO_LARGE");
    }
    expect((await call(app.url, "GET", "/health")).status).toBe(200);
  });

  it("the portal's sign-in form still works under its limit", async () => {
    const csrf = await fetch(`${app.url}/api/auth/csrf`);
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${app.url}/api/auth/callback/api-key`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, api_key: key, json: "true" }),
    });
    expect([200, 302]).toContain(res.status);
    expect(res.headers.getSetCookie().some((c) => /next-auth\.session-token=/.test(c))).toBe(true);
  });

  it("JSON nested deeper than 32 levels is refused before parsing, on every JSON route; 32 levels of an unknown field are fine", async () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    for (const [path, auth, base] of [
      ["/api/v1/auth/keys", false, '"name":"deep"'],
      ["/api/v1/translate", true, '"text":"Good morning","source_lang":"en","target_lang":"lug"'],
      ["/api/v1/translate/batch", true, '"items":[{"id":"1","text":"Good morning","source_lang":"en","target_lang":"lug"}]'],
      ["/api/v1/speech/tts", true, '"text":"Oli otya","language":"lug"'],
    ] as const) {
      const headers = { "content-type": "application/json" };
      const tooDeep = await call(app.url, "POST", path, { key: auth ? key : undefined, body: `{${base},"x":${deep(40)}}`, headers });
      const d = expectEnvelope(tooDeep, 400, "INVALID_JSON");
      expect(d.message).toMatch(/deeper than 32/);
      // 10,000 levels in 20 kB: refused as quickly, no stack overflow, server fine.
      const bomb = await call(app.url, "POST", path, { key: auth ? key : undefined, body: `{${base},"x":${deep(10_000)}}`, headers });
      expect([400, 413]).toContain(bomb.status);
      const ok = await call(app.url, "POST", path, { key: auth ? key : undefined, body: `{${base},"x":${deep(30)}}`, headers });
      expect(ok.status, `${path}: ${ok.text.slice(0, 200)}`).toBe(200);
    }
  });

  it("size limits inside the JSON: 10,000 batch items and a 1 MB name are refused quickly, without echoing them", async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({ id: String(i), text: "x", target_lang: "lug" }));
    const t0 = performance.now();
    const big = await call(app.url, "POST", "/api/v1/translate/batch", { key, json: { items } });
    expectEnvelope(big, 422, "BATCH_TOO_LARGE");
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(big.text.length).toBeLessThan(2_000);
    const name = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "n".repeat(1024 * 1024) } });
    expectEnvelope(name, 413, "PAYLOAD_TOO_LARGE");
    const proto = await call(app.url, "POST", "/api/v1/auth/keys", {
      body: '{"name":"proto","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
      headers: { "content-type": "application/json" },
    });
    expect(proto.status).toBe(200);
    expect(Object.keys(proto.body).sort()).toEqual(["api_key", "created_at", "expires_at", "name"]);
  });
});

/** A raw HTTP/1.1 exchange (fetch refuses to send malformed headers, which is exactly what these tests need). */
function rawRequest(port: number, request: string, timeoutMs = 10_000): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let data = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms; got: ${data.slice(0, 200)}`));
    }, timeoutMs);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (d) => (data += d.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const [head, ...rest] = data.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join("\r\n\r\n") });
    });
  });
}

describe("header injection", () => {
  let app: RunningApp;
  let key: string;
  beforeAll(async () => {
    app = await startApp();
    key = await mintKey(app.url, "headers");
  });

  const headerNames = (head: string) =>
    head
      .split("\r\n")
      .slice(1)
      .map((l) => l.split(":")[0].toLowerCase());

  it("CR/LF inside a header value never becomes a response header", async () => {
    for (const injected of [
      "X-Request-Id: abcdefgh\rSet-Cookie: evil=1",
      "X-Request-Id: abcdefgh\nSet-Cookie: evil=1",
      "X-Request-Id: abcdefgh\r\n Set-Cookie: evil=1",
    ]) {
      const res = await rawRequest(
        app.port,
        ["GET /api/v1/languages HTTP/1.1", "Host: 127.0.0.1", `Authorization: Bearer ${key}`, injected, "Connection: close", "", ""].join("\r\n"),
      );
      expect(headerNames(res.head)).not.toContain("set-cookie");
      expect(res.head).not.toMatch(/evil/);
    }
  });

  it.each([
    ["percent-encoded CRLF", "abc%0d%0aSet-Cookie:%20evil=1"],
    ["markup", "<script>alert(1)</script>"],
    ["spaces", "id with spaces"],
    ["too long", "a".repeat(65)],
    ["too short", "xyz-1"], // not hex: a generated id (req_ + 24 hex) can never contain it by chance, as it could "abc"
    ["non-ASCII", "idé-123456"],
  ])("an X-Request-Id with %s is replaced by a generated one, never echoed", async (_n, value) => {
    const res = await rawRequest(
      app.port,
      [
        "GET /api/v1/languages HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${key}`,
        `X-Request-Id: ${value}`,
        "Connection: close",
        "",
        "",
      ].join("\r\n"),
    );
    expect(res.status).toBe(200);
    expect(/\r\nx-request-id: (req_[0-9a-f]{24})\r?$/im.exec(res.head)?.[1]).toMatch(/^req_[0-9a-f]{24}$/);
    expect(res.head).not.toContain(value);
  });

  it("a well-formed X-Request-Id is kept for tracing, on success and on error", async () => {
    const ok = await call(app.url, "GET", "/api/v1/languages", { key, headers: { "x-request-id": "trace-0123456789" } });
    expect(ok.headers.get("x-request-id")).toBe("trace-0123456789");
    const err = await call(app.url, "GET", "/api/v1/auth/keys/me", { headers: { "x-request-id": "trace-abcdefghij" } });
    expect(err.body.detail.request_id).toBe("trace-abcdefghij");
  });

  it("input in the path or query string is not reflected into headers", async () => {
    for (const path of [
      "/api/v1/languages?source=%0d%0aSet-Cookie:%20evil=1",
      "/api/v1/%0d%0aSet-Cookie:%20evil=1",
      "/api/v1/languages?capability=%0d%0aLocation:%20http://evil.example",
    ]) {
      const res = await rawRequest(
        app.port,
        [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", `Authorization: Bearer ${key}`, "Connection: close", "", ""].join("\r\n"),
      );
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(headerNames(res.head)).not.toContain("set-cookie");
      expect(headerNames(res.head)).not.toContain("location");
    }
  });

  it("a forged Host header does not end up in API responses", async () => {
    const res = await rawRequest(app.port, ["GET /api/v1/nowhere HTTP/1.1", "Host: evil.example", "Connection: close", "", ""].join("\r\n"));
    expect(res.status).toBe(404);
    expect(res.head + res.body).not.toContain("evil.example");
  });
});

describe("CORS: the API for any origin without credentials; the portal same-origin only", () => {
  let app: RunningApp;
  let key: string;
  beforeAll(async () => {
    app = await startApp();
    key = await mintKey(app.url, "cors");
  });
  const ORIGIN = "https://some-app.example";

  it.each(["/api/v1/translate", "/api/v1/translate/batch", "/api/v1/auth/keys", "/api/v1/auth/keys/me", "/api/v1/languages", "/api/v1/speech/tts"])(
    "preflight for %s is answered: any origin, Authorization allowed, no credentials",
    async (path) => {
      const res = await fetch(app.url + path, {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, x-request-id",
        },
      });
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
      expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toMatch(/authorization.*content-type|content-type.*authorization/);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    },
  );

  it("responses (errors included) let a browser read the body and the rate-limit and request-id headers", async () => {
    for (const res of [
      await call(app.url, "GET", "/api/v1/languages", { key, headers: { origin: ORIGIN } }),
      await call(app.url, "GET", "/api/v1/languages", { headers: { origin: ORIGIN } }), // 401
      await call(app.url, "GET", "/health", { headers: { origin: ORIGIN } }),
    ]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      const exposed = res.headers.get("access-control-expose-headers")?.split(/,\s*/) ?? [];
      expect(exposed).toEqual(expect.arrayContaining(["X-Request-Id", "X-RateLimit-Remaining", "Retry-After"]));
    }
  });

  it("exposes every header the API sends to a browser (the catalog's and raw audio's included)", async () => {
    const json = (body: unknown, accept = "application/json") => ({ key, headers: { origin: ORIGIN, accept }, json: body });
    const responses = [
      await call(app.url, "POST", "/api/v1/translate", json({ text: "Good morning", source_lang: "en", target_lang: "lug" })),
      await call(app.url, "POST", "/api/v1/translate/batch", json({ items: [{ id: "1", text: "Thank you", source_lang: "en", target_lang: "sw" }] })),
      await call(
        app.url,
        "POST",
        "/api/v1/translate/catalog",
        json({ format: "json", content: '{"hello":"Hello"}', source_lang: "en", target_lang: "lug" }, "application/octet-stream"),
      ),
      await call(app.url, "POST", "/api/v1/speech/tts", json({ text: "Oli otya", language: "lug" }, "audio/wav")),
      await call(app.url, "POST", "/api/v1/detect", json({ texts: ["Wasuze otya nno?"] })),
      await call(app.url, "GET", "/api/v1/languages", { key, headers: { origin: ORIGIN } }),
      await call(app.url, "GET", "/api/v1/usage", { headers: { origin: ORIGIN } }), // 401
      await call(app.url, "POST", "/api/v1/auth/keys", { headers: { origin: ORIGIN }, json: { name: "cors" } }),
    ];
    // What the API itself sets: its X- headers (not the two security headers every page gets) and the standard ones a
    // client reads. The CORS-safelisted ones (Content-Type, Cache-Control, …) are readable anyway.
    const own = /^(x-(?!content-type-options$|frame-options$).+|etag|retry-after|www-authenticate|location|content-disposition)$/;
    const sent = new Set<string>();
    for (const res of responses) for (const name of res.headers.keys()) if (own.test(name)) sent.add(name);
    for (const name of ["x-lugha-cache", "x-lugha-entries-total", "x-lugha-upstream-calls", "x-lugha-characters-translated", "x-lugha-voice"]) {
      expect(sent, "the requests above reach every kind of response").toContain(name);
    }
    const exposed = new Set(responses[0]!.headers.get("access-control-expose-headers")?.toLowerCase().split(/,\s*/));
    expect([...sent].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it("portal pages, next-auth and server actions send no CORS headers", async () => {
    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/docs"],
      ["GET", "/api/auth/session"],
      ["OPTIONS", "/api/auth/session"],
      ["GET", "/api/auth/csrf"],
    ]) {
      const res = await fetch(app.url + path, { method, headers: { origin: ORIGIN, "access-control-request-method": "POST" } });
      expect(res.headers.get("access-control-allow-origin"), `${method} ${path}`).toBeNull();
      expect(res.headers.get("access-control-allow-credentials"), `${method} ${path}`).toBeNull();
    }
  });
});

describe("security headers", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp();
  });

  it.each(["/", "/docs", "/signin", "/dashboard"])(
    "%s: a nonce CSP without unsafe-inline scripts, every script carrying the nonce, no framing",
    async (path) => {
      const res = await fetch(app.url + path, { redirect: "manual" });
      if (res.status >= 300 && res.status < 400) return; // /dashboard without a session redirects; nothing rendered
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce, csp).toBeTruthy();
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
      expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/base-uri 'self'/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attrs of scripts) {
        if (/type="application\/(ld\+)?json"/.test(attrs)) continue; // data, not code
        expect(attrs, `script without the nonce on ${path}`).toContain(`nonce="${nonce}"`);
      }
      // A fresh nonce per response.
      const again = await fetch(app.url + path);
      expect(again.headers.get("content-security-policy")).not.toBe(csp);
    },
  );

  it("/docs: the OpenAPI document it loads is same-origin (connect-src 'self') and served", async () => {
    const page = await fetch(`${app.url}/docs`);
    expect(page.headers.get("content-security-policy")).toMatch(/connect-src 'self'/);
    const doc = await call(app.url, "GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.0\./);
  });

  it("API responses are JSON with nosniff and not cacheable when personal", async () => {
    const key = await mintKey(app.url, "headers");
    const res = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("key issuance throttle: the client cannot choose the address it is counted under", () => {
  it("without TRUST_PROXY, forged forwarding headers (and our own internal peer header) all share one budget", async () => {
    const app = await startApp({ env: { RATE_LIMIT_ISSUANCE: "3/60s" } });
    try {
      const forged = (i: number): Record<string, string> => ({
        "x-forwarded-for": `203.0.113.${i}`,
        "x-real-ip": `198.51.100.${i}`,
        forwarded: `for=192.0.2.${i}`,
        "true-client-ip": `192.0.2.${i}`,
        "cf-connecting-ip": `192.0.2.${i}`,
        "x-lugha-peer-address": `10.9.8.${i}`,
      });
      for (let i = 0; i < 3; i++)
        expect((await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: `k${i}` }, headers: forged(i) })).status).toBe(200);
      const refused = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "k4" }, headers: forged(99) });
      expectEnvelope(refused, 429, "RATE_LIMIT_EXCEEDED");
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    } finally {
      await app.stop();
    }
  });
});

describe("failed-authentication throttle per client IP", () => {
  const from = (ip: string) => ({ "x-forwarded-for": ip });
  const random = () => `svc_${crypto.getRandomValues(new Uint8Array(20)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "")}`;
  /** Every 429 of the API carries these (the OpenAPI document's 429 headers): the throttle's included. */
  function expectRateLimitHeaders(res: JsonResponse, limit: number) {
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(res.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
  }

  it("past the budget an address gets 429 (with the headers of every 429) for unverified keys; keys used or minted here keep working; other addresses are not affected", async () => {
    const app = await startApp({ env: { RATE_LIMIT_AUTH_FAILURES: "5/60s", TRUST_PROXY: "true" } });
    try {
      const known = await mintKey(app.url, "behind the NAT");
      expect((await call(app.url, "GET", "/api/v1/languages", { key: known, headers: from("203.0.113.5") })).status).toBe(200);
      for (let i = 0; i < 5; i++)
        expectEnvelope(await call(app.url, "GET", "/api/v1/languages", { key: random(), headers: from("203.0.113.5") }), 401, "INVALID_API_KEY");
      for (let i = 0; i < 3; i++) {
        const refused = await call(app.url, "GET", "/api/v1/languages", { key: random(), headers: from("203.0.113.5") });
        expectEnvelope(refused, 429, "RATE_LIMIT_EXCEEDED");
        expectRateLimitHeaders(refused, 5);
        expect(refused.text).not.toContain("svc_");
      }
      expect((await call(app.url, "GET", "/api/v1/languages", { key: known, headers: from("203.0.113.5") })).status).toBe(200);
      // The person behind the flooded address who mints a key now (issuance is throttled apart) can use it at once:
      // a key issued by this instance counts as verified here.
      const minted = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "minted behind the flood" }, headers: from("203.0.113.5") });
      expect(minted.status).toBe(200);
      for (const path of ["/api/v1/languages", "/api/v1/auth/keys/me"])
        expect((await call(app.url, "GET", path, { key: minted.body.api_key, headers: from("203.0.113.5") })).status, path).toBe(200);
      // The flood itself is still refused, and a bad key from any other address is a plain 401 (its own budget).
      expectEnvelope(await call(app.url, "GET", "/api/v1/languages", { key: random(), headers: from("203.0.113.5") }), 429, "RATE_LIMIT_EXCEEDED");
      expectEnvelope(await call(app.url, "GET", "/api/v1/languages", { key: random(), headers: from("203.0.113.6") }), 401, "INVALID_API_KEY");
    } finally {
      await app.stop();
    }
  });

  itOn("postgres", "a valid key this instance has never seen waits like the flood on it, and works on the instance that issued it", async () => {
    const env = { RATE_LIMIT_AUTH_FAILURES: "3/60s", TRUST_PROXY: "true" };
    const issuer = await startApp({ env });
    const other = await startApp({ env, databaseUrl: issuer.databaseUrl });
    try {
      const key = await mintKey(issuer.url, "issued on the first instance");
      for (let i = 0; i < 4; i++) await call(other.url, "GET", "/api/v1/languages", { key: random(), headers: from("203.0.113.9") });
      const waits = await call(other.url, "GET", "/api/v1/languages", { key, headers: from("203.0.113.9") });
      expectEnvelope(waits, 429, "RATE_LIMIT_EXCEEDED");
      expectRateLimitHeaders(waits, 3);
      expect((await call(issuer.url, "GET", "/api/v1/languages", { key, headers: from("203.0.113.9") })).status).toBe(200);
      expect((await call(other.url, "GET", "/api/v1/languages", { key, headers: from("203.0.113.10") })).status).toBe(200);
    } finally {
      await Promise.all([issuer.stop(), other.stop()]);
    }
  });
});

describe("no oracle in key refusals", () => {
  it("unknown, revoked, malformed and wrong-case keys get byte-identical refusals (apart from the request id)", async () => {
    const app = await startApp();
    try {
      const revoked = await mintKey(app.url, "oracle");
      await call(app.url, "DELETE", "/api/v1/auth/keys/me", { key: revoked });
      const live = await mintKey(app.url, "oracle live");
      const variants = [
        `svc_${"0".repeat(40)}`, // well-formed, unknown
        revoked,
        live.toUpperCase(),
        live.slice(0, -1), // malformed
        `${live.slice(0, -1)}${live.endsWith("0") ? "1" : "0"}`, // one character off
      ];
      const bodies = new Set<string>();
      for (const k of variants) {
        const res = await call(app.url, "GET", "/api/v1/languages", { key: k });
        const d = expectEnvelope(res, 401, "INVALID_API_KEY");
        bodies.add(JSON.stringify({ ...d, request_id: undefined }) + [...res.headers.keys()].filter((h) => !/date|x-request-id/.test(h)).join(","));
      }
      expect(bodies.size).toBe(1);
    } finally {
      await app.stop();
    }
  });
});

describeOn("pglite", "Vercel without PostgreSQL fails clearly", () => {
  it("VERCEL set and DATABASE_URL unset/PGlite: /health is down naming the cause, the API answers an error, nothing is stored", async () => {
    const app = await startApp({ env: { VERCEL: "1", DATABASE_URL: undefined }, waitUntilHealthy: false });
    try {
      const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
      expect(health.status).toBe(503);
      expect(health.body.status).toBe("down");
      expect(health.body.checks.database.engine).toBe("misconfigured");
      const mint = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "nowhere" } });
      expect(mint.status).toBeGreaterThanOrEqual(500);
      expect(mint.body.detail.code).toMatch(/INTERNAL_ERROR|SERVICE_UNAVAILABLE/);
      await waitForLog(app, /DATABASE_URL must point to PostgreSQL on Vercel/);
    } finally {
      await app.stop();
    }
  });
});

async function waitForLog(app: RunningApp, pattern: RegExp) {
  const until = Date.now() + 5_000;
  while (!pattern.test(app.logs())) {
    if (Date.now() > until) throw new Error(`log never matched ${pattern}:\n${app.logs().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
