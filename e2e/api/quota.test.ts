import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorServer } from "@/lib/providers/sandbox";
import { call, type JsonResponse, mintKey, portalSignIn } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { startLiveEmulators } from "../support/emulators";

/*
 * Quota made visible, over HTTP against the built app with live clients on loopback emulators, on both databases:
 * packed batches cost the few calls per provider; every answer says what it cost (upstream_calls and
 * X-Lugha-Upstream-Calls); and the usage API (total, per provider, per day), the request log and the dashboard's
 * usage export all sum to the quota units the emulators counted, as the upstreams charge them.
 */

let app: RunningApp;
let emulators: [EmulatorServer, EmulatorServer, EmulatorServer];
const PROVIDERS = ["provider_a", "provider_b", "provider_c"] as const;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  const live = await startLiveEmulators();
  emulators = live.emulators;
  app = await startApp({ env: { ...live.env, RATE_LIMIT_TRANSLATE: "1000/60s" } });
});
afterAll(async () => {
  await stopAllApps();
  await Promise.all((emulators ?? []).map((e) => e.close()));
});

const UI = ["Save changes", "Cancel", "Open settings", "Delete {name}?", "Sign in", "Next page", "Try again", "Your profile"];
const strings = (n: number, target: string, from: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `s${from + i}`,
    text: `${UI[(from + i) % UI.length]} ${from + i}`,
    source_lang: "en",
    target_lang: target,
  }));
const quota = (i: number) => emulators[i].stats.quotaUnits;
const totalQuota = () => emulators.reduce((n, e) => n + e.stats.quotaUnits, 0);

describe("upstream calls (quota units)", () => {
  let key: string;
  /** What each answer said it cost, summed. */
  let reported = 0;
  const spent = (res: JsonResponse) => {
    const header = Number(res.headers.get("x-lugha-upstream-calls"));
    if (res.status === 200 && typeof res.body?.upstream_calls === "number") expect(res.body.upstream_calls).toBe(header);
    reported += header;
    return header;
  };
  const post = async (path: string, json: unknown) => {
    const res = await call(app.url, "POST", path, { key, json });
    spent(res);
    return res;
  };

  beforeAll(async () => {
    key = await mintKey(app.url, "quota");
    for (const e of emulators) e.reset();
  });

  it("100 short strings as two batches: ≤ 3 calls for 50 on provider_a, ≤ 6 on provider_b and provider_c, ≤ 6 for 100 on each", async () => {
    for (const [i, target, fifty] of [
      [0, "lug", 3],
      [1, "tw", 6],
      [2, "sw", 6],
    ] as const) {
      const before = quota(i);
      const one = await post("/api/v1/translate/batch", { items: strings(50, target, 0) });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ succeeded: 50, failed: 0 });
      expect(one.body.results.every((r: { provider: string }) => r.provider === PROVIDERS[i])).toBe(true);
      expect(one.body.upstream_calls).toBe(quota(i) - before);
      expect(one.body.upstream_calls).toBeLessThanOrEqual(fifty);
      const two = await post("/api/v1/translate/batch", { items: strings(50, target, 50) });
      expect(two.body).toMatchObject({ succeeded: 50, failed: 0 });
      expect(quota(i) - before).toBeLessThanOrEqual(6);
    }
    expect(reported).toBe(totalQuota());
  });

  it("a fallback's failed calls, retries included, a cache hit, speech and a catalog: each answer says its cost", async () => {
    // provider_a answers 503 to every call: the request falls back, and provider_a's attempts are charged all the same.
    emulators[0].setControls({ failMode: "status", status: 503, pathPrefix: "/tasks/translate" });
    const before = quota(0);
    const fallback = await post("/api/v1/translate", { text: "Good evening", source_lang: "en", target_lang: "lug" });
    expect(fallback.status).toBe(200);
    expect(fallback.body).toMatchObject({ fallback_used: true });
    expect(quota(0) - before).toBeGreaterThanOrEqual(1);
    expect(fallback.body.upstream_calls).toBeGreaterThan(quota(0) - before);
    emulators[0].setControls({});

    const miss = await post("/api/v1/translate", { text: "Good night", source_lang: "en", target_lang: "lug" });
    expect(miss.body).toMatchObject({ cached: false, upstream_calls: 1 });
    const hit = await post("/api/v1/translate", { text: "Good night", source_lang: "en", target_lang: "lug" });
    expect(hit.body).toMatchObject({ cached: true, upstream_calls: 0 });
    const refused = await post("/api/v1/translate", { text: "Good night", source_lang: "en", target_lang: "en" });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("x-lugha-upstream-calls")).toBe("0");

    const tts = await post("/api/v1/speech/tts", { text: "Wasuze otya", language: "lug" });
    expect(tts.status).toBe(200);
    expect(tts.body.upstream_calls).toBe(1); // the synthesis; its signed audio download is not a quota unit

    const catalog = await post("/api/v1/translate/catalog", {
      format: "json",
      content: JSON.stringify({ a: "Open the file", b: "Close the file" }),
      source_lang: "en",
      target_lang: "lug",
    });
    expect(catalog.status).toBe(200);
    expect(catalog.body.upstream_calls).toBe(1);
    expect(reported).toBe(totalQuota());
  });

  it("the usage API, the request log and the dashboard's export sum to the emulators' counts", async () => {
    const total = totalQuota();
    const day = await call(app.url, "GET", "/api/v1/usage", { key });
    expect(day.body.totals.upstream_calls).toBe(total);
    const byProvider = Object.fromEntries(PROVIDERS.map((p, i) => [p, quota(i)]).filter(([, n]) => (n as number) > 0));
    expect(day.body.totals.upstream_calls_by_provider).toEqual(byProvider);
    expect(day.body.rows.at(-1)).toMatchObject({ day: today(), upstream_calls: total, upstream_calls_by_provider: byProvider });

    const providers = await call(app.url, "GET", "/api/v1/usage?group_by=provider", { key });
    for (const [i, p] of PROVIDERS.entries())
      expect(providers.body.rows.find((r: { provider: string }) => r.provider === p)?.upstream_calls ?? 0).toBe(quota(i));

    const log = await call(app.url, "GET", "/api/v1/usage/requests?per_page=100", { key });
    expect(log.body.requests.reduce((n: number, r: { upstream_calls: number }) => n + r.upstream_calls, 0)).toBe(total);

    const cookie = await portalSignIn(app.url, key);
    const csv = await fetch(`${app.url}/dashboard/usage.csv?days=7`, { headers: { cookie } });
    const [header, ...rows] = (await csv.text()).trim().split("\r\n");
    const column = header.split(",").indexOf("upstream_calls");
    expect(column).toBeGreaterThan(0);
    expect(rows.reduce((n, r) => n + Number(r.split(",")[column]), 0)).toBe(total);
  });
});
