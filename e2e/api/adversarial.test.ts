import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { largeCatalogs } from "@/lib/catalog/catalog.test-support";
import type { EmulatorServer } from "@/lib/providers/sandbox";
import { MAX_CATALOG_UPSTREAM_CALLS } from "@/lib/translate/catalog";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { startLiveEmulators } from "../support/emulators";
import { describeOn } from "../support/projects";

/**
 * Hostile input against the built server, on loopback, with live provider clients on the upstream emulators: the
 * reproductions of issue 40 at their reported sizes, and more of the same kind for every catalog format and for
 * audio_url. Each attack must be answered 4xx within 2 s, reach no upstream (or no more than its budget), raise the
 * server's resident memory by less than 100 MB, and leave /health/live answering within 200 ms throughout.
 *
 * Run on one database only: nothing here touches it beyond authenticating.
 */

afterAll(stopAllApps);

/**
 * /health/live must answer within 200 ms throughout an attack. On a machine so loaded that it cannot answer that fast
 * at rest, the budget is twice its slowest answer at rest — measured before the attacks, and again for half a second
 * just before each one (the machine's cores are shared, and their speed comes and goes within a run) — so that the
 * test still tells an attack's stall from the machine's.
 */
let healthBudgetMs = 200;
/** The slowest /health/live answer at rest, measured before the attacks. */
let restSlowestMs = 0;
const MEMORY_BUDGET_MB = 100;
const ANSWER_BUDGET_MS = 2_000;

/** Resident memory of a process and its descendants, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  let kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  } catch {}
  for (const child of children) {
    try {
      kb += rssMb(Number(child)) * 1024;
    } catch {}
  }
  return kb / 1024;
}

interface Watch {
  /** Slowest /health/live answer while watching, ms. */
  slowestHealthMs: number;
  /** Slowest /health/live answer in the half second at rest just before the attack, ms. */
  restSlowestMs: number;
  /** Highest resident memory while watching minus the memory before, MB. */
  memoryRiseMb: number;
  healthChecks: number;
}

/** The slowest /health/live answer while it is asked without pause as long as `running()`, and how many were asked. */
async function probeHealth(app: RunningApp, running: () => boolean): Promise<{ slowest: number; checks: number }> {
  let slowest = 0;
  let checks = 0;
  while (running()) {
    const started = performance.now();
    const res = await fetch(`${app.url}/health/live`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    checks++;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { slowest, checks };
}

/**
 * Runs `attack` while /health/live is asked without pause and the server's memory is sampled every 20 ms, after half a
 * second of asking /health/live at rest.
 */
async function watched<T>(app: RunningApp, attack: () => Promise<T>): Promise<{ result: T; watch: Watch }> {
  const restUntil = performance.now() + 500;
  const rest = await probeHealth(app, () => performance.now() < restUntil);
  const pid = app.process.pid!;
  const before = rssMb(pid);
  let peak = before;
  let running = true;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  const prober = probeHealth(app, () => running);
  try {
    const result = await attack();
    // Memory that is still rising after the answer (a fetch read on in the background) counts too.
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    const { slowest, checks } = await prober;
    return { result, watch: { slowestHealthMs: slowest, restSlowestMs: rest.slowest, memoryRiseMb: peak - before, healthChecks: checks } };
  } finally {
    running = false;
    clearInterval(sampler);
    await prober;
  }
}

function expectHarmless(watch: Watch) {
  expect(watch.healthChecks).toBeGreaterThan(0);
  expect(watch.slowestHealthMs).toBeLessThan(Math.max(healthBudgetMs, 2 * watch.restSlowestMs));
  expect(watch.memoryRiseMb).toBeLessThan(MEMORY_BUDGET_MB);
}

/** A JSON catalog of one ICU message: plurals nested `depth` deep, padded with the key to exactly `bytes`. */
function icuBomb(depth: number, bytes: number): string {
  let message = "x";
  for (let i = 0; i < depth; i++) message = `{n,plural,one{#}other{${message}}}`;
  const bare = JSON.stringify({ k: message });
  const padded = JSON.stringify({ [`k${"k".repeat(bytes - bare.length)}`]: message });
  expect(padded.length).toBe(bytes);
  return padded;
}

/** A GFM table of `columns` columns: header, delimiter row and one row of cells. */
const wideTable = (columns: number) => `${"|a".repeat(columns)}|\n${"|-".repeat(columns)}|\n${"|b".repeat(columns)}|\n`;

/** `lines` lines of the emphasis pattern `_a**b `, `bytes` in all (each line below the 20,000-character line limit). */
function emphasisParagraph(bytes: number, lines: number): string {
  const perLine = Math.floor(bytes / lines) - 1;
  const line = "_a**b ".repeat(Math.ceil(perLine / 6)).slice(0, perLine);
  return Array.from({ length: lines }, () => line).join("\n");
}

describeOn("pglite", "hostile input (issue 40)", () => {
  let ups: [EmulatorServer, EmulatorServer, EmulatorServer];
  let app: RunningApp;
  let key: string;
  let media: Server;
  let mediaHost: string;
  /** Bytes the media server has written, per path. */
  const sent = new Map<string, number>();
  const upstreamCalls = () => ups.reduce((n, u) => n + u.stats.requests, 0);

  beforeAll(async () => {
    media = createServer((req, res) => serveMedia(req.url ?? "/", res));
    media.listen(0, "127.0.0.1");
    await once(media, "listening");
    mediaHost = `127.0.0.1:${(media.address() as AddressInfo).port}`;
    const live = await startLiveEmulators();
    ups = live.emulators;
    app = await startApp({ env: { ...live.env, RATE_LIMIT_BATCH: "100000/60s", RATE_LIMIT_STT: "100000/60s", AUDIO_URL_ALLOWED_HOSTS: mediaHost } });
    key = await mintKey(app.url, "adversarial");
    // Each route loads on its first request (a cold start that holds the event loop): load them before measuring.
    await catalog("json", JSON.stringify({ a: "Hello" }), "lug");
    await call(app.url, "POST", "/api/v1/speech/stt", { key, json: { audio_url: `http://${mediaHost}/elsewhere`, language: "sw" } });
    const { watch } = await watched(app, () => new Promise((r) => setTimeout(r, 2_000)));
    restSlowestMs = watch.slowestHealthMs;
    healthBudgetMs = Math.max(200, 2 * restSlowestMs);
    console.log(
      `/health/live at rest: slowest ${Math.round(watch.slowestHealthMs)} ms of ${watch.healthChecks}; budget ${Math.round(healthBudgetMs)} ms`,
    );
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
    media?.closeAllConnections();
    await new Promise((r) => media?.close(r));
  });

  /**
   * Endless (64 MB) bodies, written as fast as the client reads, with the status a path names; `slow` trickles 2 MB
   * over about 2 s and ends (not audio: 415), so that its fetch is in flight while the others arrive.
   */
  function serveMedia(path: string, res: ServerResponse) {
    const status = path.startsWith("/redirect") ? 302 : path.startsWith("/error") ? 500 : 200;
    const headers: Record<string, string> = status === 302 ? { location: "/elsewhere" } : { "content-type": "audio/wav" };
    if (path === "/elsewhere") return void res.writeHead(404).end();
    res.writeHead(status, headers);
    res.on("error", () => {});
    const chunk = Buffer.alloc(64 * 1024);
    const slow = path.includes("slow");
    const pump = () => {
      while (!res.destroyed && (sent.get(path) ?? 0) < (slow ? 2 : 64) * 1024 * 1024) {
        sent.set(path, (sent.get(path) ?? 0) + chunk.length);
        if (slow) return void setTimeout(pump, 60);
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  }

  const catalog = (format: string, content: string, target_lang = "ar") =>
    call(app.url, "POST", "/api/v1/translate/catalog", { key, json: { format, content, source_lang: "en", target_lang } });

  /** A catalog attack: 422 naming the content, within 2 s, with no upstream call, harmless to the server. */
  async function refusedCatalog(format: string, content: string, limit: RegExp, target = "ar") {
    const calls = upstreamCalls();
    const started = performance.now();
    const { result: res, watch } = await watched(app, () => catalog(format, content, target));
    expect(performance.now() - started - 300).toBeLessThan(ANSWER_BUDGET_MS);
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors?.[0].loc).toEqual(["body", "content"]);
    expect(detail.message).toMatch(limit);
    expect(upstreamCalls()).toBe(calls);
    expectHarmless(watch);
    return detail;
  }

  it.each([
    [207, 6],
    [228, 7],
    [249, 8],
  ])("nested ICU plurals into Arabic: the %i-byte catalog is refused before any upstream call", async (bytes, depth) => {
    const detail = await refusedCatalog("json", icuBomb(depth, bytes), /ICU plural and select arguments nested deeper than 4 levels/);
    expect(detail.errors?.[0].type).toBe("catalog_limit_exceeded");
  });

  it("an ICU message whose expansion passes 256 branches is refused, in every format that carries ICU", async () => {
    let message = "x";
    for (let i = 0; i < 4; i++) message = `{n,plural,one{#}other{${message}}}`;
    await refusedCatalog("json", JSON.stringify({ k: message }), /more than 256 plural and select branches/);
    await refusedCatalog("arb", JSON.stringify({ "@@locale": "en", k: message }), /more than 256 plural and select branches/);
  });

  it(`a 10 kB catalog whose expansion would need more than ${MAX_CATALOG_UPSTREAM_CALLS} upstream calls is refused before the first`, async () => {
    // Three levels expand into Arabic to 186 branches: within a message's budget, but 60 of them are 11,000 texts.
    const entries: Record<string, string> = {};
    for (let i = 0; JSON.stringify(entries).length < 10_000 - 200; i++) {
      let message = `w${i}`;
      for (let d = 0; d < 3; d++) message = `{n,plural,one{# q${i}}other{${message}}}`;
      entries[`m${i}`] = message;
    }
    const content = JSON.stringify(entries);
    expect(content.length).toBeLessThanOrEqual(10_000);
    await refusedCatalog("json", content, /upstream calls/);
  });

  it("5,000 plural entries are 15,000 in Arabic: refused by the entry limit counted after expansion", async () => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < 2_500; i++) {
      entries[`item${i}_one`] = `One item ${i}`;
      entries[`item${i}_other`] = `{{count}} items ${i}`;
    }
    await refusedCatalog("json", JSON.stringify(entries), /more than 5000 entries once plural forms are expanded/);
  });

  it.each([
    ["15 kB, 2,500 columns", 2_500],
    ["30 kB, 5,000 columns", 5_000],
    ["1,500 columns", 1_500],
  ])("a wide Markdown table (%s) is refused before parsing", async (_what, columns) => {
    await refusedCatalog("markdown", wideTable(columns), /table row with more than 64 columns/, "lug");
  });

  it("a Markdown table of more than 2,000 cells is refused before parsing", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `${`| c${i} `.repeat(12)}|`).join("\n");
    await refusedCatalog("markdown", `${"| h ".repeat(12)}|\n${"|---".repeat(12)}|\n${rows}\n`, /more than 2000 table cells/, "lug");
  });

  it.each([
    ["119 kB over six lines", 119_000, 6, /more than 200 emphasis, code, link or HTML marks/],
    ["40 kB", 40_000, 2, /more than 200 emphasis, code, link or HTML marks/],
    ["594 kB", 594_000, 30, /longer than 131072 characters/],
  ])("a Markdown paragraph of `_a**b ` (%s) is refused before parsing", async (_what, bytes, lines, limit) => {
    await refusedCatalog("markdown", emphasisParagraph(bytes, lines), limit, "lug");
  });

  it.each([
    ["unclosed links", "[a](b ".repeat(150)],
    ["code spans", "`a ".repeat(400)],
    ["HTML openers", "<a ".repeat(400)],
    ["strikethrough", "~a ".repeat(400)],
  ])("pathological inline syntax in one paragraph (%s) is refused", async (_what, paragraph) => {
    await refusedCatalog("markdown", `# Title\n\n${paragraph}\n`, /more than 200 emphasis, code, link or HTML marks/, "lug");
  });

  it("many dense paragraphs are refused by the document's total of inline syntax", async () => {
    const paragraph = "_a**b ".repeat(100);
    await refusedCatalog("markdown", Array.from({ length: 60 }, () => paragraph).join("\n\n"), /more than 5000 emphasis/, "lug");
  });

  it.each([
    [
      "xliff",
      "entity bomb",
      `<?xml version="1.0"?><!DOCTYPE x [${lolEntities()}]><xliff version="1.2"><file><body><trans-unit id="a"><source>&l9;</source></trans-unit></body></file></xliff>`,
    ],
    ["android", "entity bomb", `<?xml version="1.0"?><!DOCTYPE x [${lolEntities()}]><resources><string name="a">&l9;</string></resources>`],
    ["android", "deep nesting", `<resources>${"<b>".repeat(100_000)}${"</b>".repeat(100_000)}</resources>`],
    ["xliff", "deep nesting", `<xliff version="2.0">${"<group>".repeat(20_000)}${"</group>".repeat(20_000)}</xliff>`],
    ["yaml", "alias bomb", yamlAliasBomb()],
    ["yaml", "deep flow nesting", `a: ${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["yaml", "deep block nesting", `${Array.from({ length: 80 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n")} x\n`],
    ["json", "deep nesting", `${"[".repeat(200_000)}${"]".repeat(200_000)}`],
    ["json", "wide object", JSON.stringify(Object.fromEntries(Array.from({ length: 5_001 }, (_, i) => [`k${i}`, `Value ${i}`])))],
    ["po", "wide catalog", Array.from({ length: 5_001 }, (_, i) => `msgid "m${i}"\nmsgstr ""\n`).join("\n")],
    ["strings", "unterminated comment", `/* ${"x".repeat(1_000_000)}`],
    ["srt", "wide catalog", Array.from({ length: 5_001 }, (_, i) => `${i + 1}\n00:00:01,000 --> 00:00:02,000\nLine ${i}\n`).join("\n")],
    ["vtt", "wide catalog", `WEBVTT\n\n${Array.from({ length: 5_001 }, (_, i) => `00:00:01.000 --> 00:00:02.000\nLine ${i}\n`).join("\n")}`],
    ["markdown", "deep nesting", `${"> ".repeat(10_000)}deep`],
    ["markdown", "nested list lines", Array.from({ length: 4_000 }, () => "- - - x").join("\n")],
  ])("%s %s: 422 within 2 s, no upstream call, harmless", async (format, _what, content) => {
    const calls = upstreamCalls();
    const started = performance.now();
    const { result: res, watch } = await watched(app, () => catalog(format, content, "lug"));
    expect(performance.now() - started - 300).toBeLessThan(ANSWER_BUDGET_MS);
    expect(expectEnvelope(res, 422, "VALIDATION_ERROR").errors?.[0].loc).toEqual(["body", "content"]);
    expect(upstreamCalls()).toBe(calls);
    expectHarmless(watch);
  });

  // The cost of a format, not of an attack: the largest ordinary file the body takes is read and written on a worker
  // thread (lib/catalog/off-thread.ts), so the server goes on answering while it is parsed (on the request's thread a
  // 3.5 MB YAML file held every other request for seconds). What stays on the request's thread is starting the worker
  // and encoding a multi-megabyte answer: the budget here is eight times the slowest answer at rest, at least 1.5 s; and
  // memory is the format's own cost (a 3.5 MB YAML document holds about 150 MB while it is parsed), at most 200 MB.
  it.each(largeCatalogs())(
    "an ordinary %s file as large as the body allows: translated, and the server answers throughout",
    async (format, content) => {
      const { result: res, watch } = await watched(app, () => catalog(format, content, "lug"));
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      const { entries } = res.body as { entries: { total: number; translated: number } };
      expect(entries.translated).toBe(entries.total);
      expect(entries.total).toBeGreaterThan(format === "markdown" ? 150 : 4_800);
      console.log(
        `${format}: ${(content.length / 1e6).toFixed(1)} MB, slowest /health/live ${Math.round(watch.slowestHealthMs)} ms, memory +${Math.round(watch.memoryRiseMb)} MB`,
      );
      expect(watch.healthChecks).toBeGreaterThan(0);
      expect(watch.slowestHealthMs).toBeLessThan(Math.max(1_500, 8 * restSlowestMs));
      expect(watch.memoryRiseMb).toBeLessThan(2 * MEMORY_BUDGET_MB);
    },
  );

  it.each([
    ["a redirect", "/redirect/a.wav", 422],
    ["an error status", "/error/a.wav", 422],
    ["a body over AUDIO_URL_MAX_BYTES", "/big/a.wav", 413],
  ])("audio_url: the connection is closed after %s; nothing is read on", async (_what, path, status) => {
    sent.delete(path); // what this attempt reads (a retry starts from nothing)
    const { result: res, watch } = await watched(app, () =>
      call(app.url, "POST", "/api/v1/speech/stt", { key, json: { audio_url: `http://${mediaHost}${path}`, language: "sw" } }),
    );
    expect(res.status).toBe(status);
    const atAnswer = sent.get(path) ?? 0;
    await new Promise((r) => setTimeout(r, 1_000));
    // At most what socket buffers hold; a response left to drain would have read tens of MB by now.
    expect((sent.get(path) ?? 0) - atAnswer).toBeLessThan(4 * 1024 * 1024);
    expect(sent.get(path) ?? 0).toBeLessThan(40 * 1024 * 1024);
    expectHarmless(watch);
  });

  it("audio_url: 20 concurrent fetches from one key hold at most the key's share; the rest are 429 with Retry-After", async () => {
    const { result, watch } = await watched(app, () =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(app.url, "POST", "/api/v1/speech/stt", { key, json: { audio_url: `http://${mediaHost}/slow/${i}.wav`, language: "sw" } }),
        ),
      ),
    );
    const refused = result.filter((r) => r.status === 429);
    // 50 MB for one key, 25 MB a fetch: two run, eighteen wait.
    expect(refused.length).toBe(18);
    for (const r of refused) {
      expectEnvelope(r, 429, "RATE_LIMIT_EXCEEDED");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    for (const r of result.filter((x) => x.status !== 429)) expect(r.status).toBe(415);
    expectHarmless(watch);
  }, 120_000);

  it("audio_url: fetches from many keys together hold at most the process's budget; the rest are 503 with Retry-After", async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, (_, i) => mintKey(app.url, `adversarial ${i}`)));
    const { result, watch } = await watched(app, () =>
      Promise.all(
        keys.map((k, i) =>
          call(app.url, "POST", "/api/v1/speech/stt", { key: k, json: { audio_url: `http://${mediaHost}/slow/many-${i}.wav`, language: "sw" } }),
        ),
      ),
    );
    // 100 MB for the process, 25 MB a fetch: four run.
    const unavailable = result.filter((r) => r.status === 503);
    expect(unavailable.length).toBe(4);
    for (const r of result.filter((x) => x.status !== 503)) expect(r.status).toBe(415);
    for (const r of unavailable) {
      expectEnvelope(r, 503, "SERVICE_UNAVAILABLE");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expectHarmless(watch);
  }, 120_000);
});

/** Nine levels of ten references each: a billion `lol`s if an entity were ever expanded. */
function lolEntities(): string {
  return ['<!ENTITY l0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`)].join("");
}

function yamlAliasBomb(): string {
  return [
    "a: &a [x, x, x, x, x, x, x, x, x]",
    ...Array.from({ length: 8 }, (_, i) => {
      const prev = String.fromCharCode(97 + i);
      const cur = String.fromCharCode(98 + i);
      return `${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(", ")}]`;
    }),
  ].join("\n");
}
