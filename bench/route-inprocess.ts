/**
 * What Lugha's own work costs per translation, without Next.js and without an inbound socket: the route's exported
 * POST handler called in this process with a `Request`, as Next.js would call it, 50 at a time. The upstream call is
 * real (the live provider client and its node:http transport against the benchmark's emulators, bench/emulators.ts, in
 * a process of their own, at 0 ms), so the miss path is the one the benchmark's app runs; the hit path answers from the
 * in-process cache. It splits the benchmark's app/floor gap into Lugha's steps and Next.js's: CPU per request here is
 * what the route handler itself costs.
 *
 *   npx tsx bench/route-inprocess.ts > /dev/null     (no build needed; the table goes to stderr, the access log to stdout)
 *   node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/route-inprocess.ts > /dev/null     (a profile of exactly that)
 *
 *   ROUTE_REQUESTS=20000   requests after 3,000 of warm-up
 *   ROUTE_CASE=miss        miss: a new text every request, the translation cache off (the benchmark's translate-0ms);
 *                          hit: one text, the cache on (its cache-hit); bare: what the node:http floor's route does
 *                          (parse, one node:http POST, a JSON Response) and nothing else. One case per process: the
 *                          cache is configured once per process. miss − bare is Lugha's own work per translation.
 *                          service and client: the same miss one and two layers down (layerCall).
 *
 * On PGlite in memory, the access log on (LOG_LEVEL=info, the default: its cost is included), rate limits out of the
 * way.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";

const REQUESTS = Number(process.env.ROUTE_REQUESTS ?? 20_000);
const CASE = process.env.ROUTE_CASE ?? "miss";
const CASES = ["miss", "hit", "bare", "service", "client"];
if (!CASES.includes(CASE)) throw new Error(`ROUTE_CASE must be one of ${CASES.join(", ")}`);
const TEXT = "Good morning, how are you? The market opens at eight and the bus leaves at nine.";
const CONCURRENCY = 50;

async function main() {
  const emulators = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "../node_modules/tsx/dist/cli.mjs"), path.join(import.meta.dirname, "emulators.ts")],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const [line] = (await once(createInterface({ input: emulators.stdout! }), "line")) as [string];
  const upstream = JSON.parse(line) as { sunbird: string };
  const calls = async (reset = false) => {
    const res = await fetch(`${upstream.sunbird}/__control${reset ? "/stats/reset" : ""}`, { method: reset ? "POST" : "GET" });
    return reset ? 0 : ((await res.json()) as { stats: { translations: { calls: number } } }).stats.translations.calls;
  };
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATABASE_URL: "pglite:memory",
    PROVIDER_MODE: "live",
    SUNBIRD_API_URL: upstream.sunbird,
    API_KEY_HASH_SECRET: "bench-hash-secret",
    NEXTAUTH_SECRET: "bench-nextauth-secret-of-32-characters",
    RATE_LIMIT_TRANSLATE: "100000000/1s",
    RATE_LIMIT_DEFAULT: "100000000/1s",
    UPSTREAM_BUDGET_PROVIDER_A: "unlimited",
    TRANSLATION_CACHE: CASE === "hit" ? "on" : "off",
  });
  const one =
    CASE === "bare"
      ? bareForward(upstream.sunbird)
      : CASE === "service" || CASE === "client"
        ? await layerCall(CASE)
        : await routeCall(CASE as "miss" | "hit");
  const run = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await one();
      }),
    );
  };
  await run(3_000);
  await calls(true);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(REQUESTS);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  const perRequest = (us: number) => Math.round(us / REQUESTS);
  const row = `| ${CASE} | ${perRequest(cpu.user + cpu.system)} | ${perRequest(cpu.system)} | ${Math.round(REQUESTS / seconds)} | ${await calls()} |`;
  emulators.kill();
  console.error(`${REQUESTS} requests, ${CONCURRENCY} at a time, after 3,000 of warm-up (this process's CPU)`);
  console.error("| case | CPU µs per request | of which system | requests/s | upstream calls |");
  console.error("|---|---:|---:|---:|---:|");
  console.error(row);
  process.exit(0);
}

/** One call of the translate route's POST handler, with a key minted through the keys route. */
async function routeCall(name: "miss" | "hit"): Promise<() => Promise<void>> {
  const keys = await import("@/app/api/v1/auth/keys/route");
  const translate = await import("@/app/api/v1/translate/route");
  const noParams = { params: Promise.resolve({}) };
  const minted = await keys.POST!(
    new Request("http://127.0.0.1/api/v1/auth/keys", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"inprocess"}',
    }),
    noParams,
  );
  const { api_key: key } = (await minted.json()) as { api_key: string };
  let n = 0;
  return async () => {
    // A miss sends a text no request sent before; a hit the same text every time.
    const text = name === "miss" ? `${TEXT} (${n++})` : TEXT;
    const res = await translate.POST!(
      new Request("http://127.0.0.1/api/v1/translate", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ text, source_lang: "en", target_lang: "lug" }),
      }),
      noParams,
    );
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
}

/**
 * A miss below the route: the translation service as the route calls it (`service`: plan, routing, localisation,
 * the provider call), or the provider client alone (`client`: budget, circuit, attempt, transport, answer). The route's
 * own work is miss − service; the service's is service − client; the client's layers are client − bare (whose
 * Request and Response cost a few µs of it).
 */
async function layerCall(layer: "service" | "client"): Promise<() => Promise<void>> {
  const { services } = await import("@/lib/server");
  const { translateText } = await import("@/lib/translate");
  const s = services();
  const client = s.providers.clients.provider_a;
  let n = 0;
  return async () => {
    const text = `${TEXT} (${n++})`;
    if (layer === "client") await client.translate({ text, source: "en", target: "lug", deadline: Date.now() + 30_000 });
    else
      await translateText({ text, source_lang: "en", target_lang: "lug" } as never, s.translate, {
        caller: { apiKeyId: "inprocess", bypass: false },
      });
  };
}

/**
 * What the benchmark's node:http floor does per request, without Next.js: parse the body of a `Request`, one node:http
 * POST with a keep-alive agent, a JSON `Response` (bench/floor.ts).
 */
function bareForward(sunbird: string): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  let n = 0;
  const forward = (body: string) =>
    new Promise<unknown>((resolve, reject) => {
      const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
      const req = http.request(`${sunbird}/tasks/translate`, { method: "POST", headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      });
      req.on("error", reject);
      req.end(body);
    });
  return async () => {
    const request = new Request("http://127.0.0.1/api/floor", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: `${TEXT} (${n++})`, source_lang: "en", target_lang: "lug" }),
    });
    const { text } = (await request.json()) as { text: string };
    const answer = (await forward(JSON.stringify({ source_language: "eng", target_language: "lug", text }))) as { output?: unknown };
    const res = Response.json({ translated_text: answer.output, characters_translated: text.length });
    await res.arrayBuffer();
  };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
