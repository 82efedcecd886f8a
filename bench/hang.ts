/**
 * How long callers wait when every provider hangs (docs/benchmark.md "Hangs detected early").
 *
 *   npx tsx bench/hang.ts                  (needs a production build: npm run build)
 *
 *   HANG_CALLERS=10          concurrent callers during the hang
 *   HANG_SCENARIOS=warm,cold
 *   HANG_APP_DIR=<dir>       run another checkout's build (e.g. the commit before hang detection), same script
 *
 * The app runs in live mode against the three upstream emulators on loopback ports (default deadline, attempt
 * timeout and circuit settings). Scenarios, each on a fresh app and fresh emulators:
 *   warm   each provider of the en→lug chain (provider_a, then provider_c) has answered 20 requests first
 *   cold   no provider has answered anything yet (a fresh instance)
 * Then every emulator is told to hang (its control endpoint), HANG_CALLERS requests to POST /api/v1/translate (auto
 * routing) are sent at once, and the script reports how long each waited and what it got, then the time and answer
 * of the next request. Upstream request counts come from the emulators.
 */
import path from "node:path";
import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";
import { mintKey, percentile, startBuiltApp } from "./start-app";

const env = process.env;
const CALLERS = Number(env.HANG_CALLERS ?? 10);
const SCENARIOS = (env.HANG_SCENARIOS ?? "warm,cold").split(",");
const APP_DIR = path.resolve(env.HANG_APP_DIR ?? path.join(import.meta.dirname, ".."));
const LUGANDA = { text: "Good morning, how are you?", source_lang: "en", target_lang: "lug" };

async function scenario(name: string) {
  const ups: EmulatorServer[] = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  const app = await startBuiltApp(APP_DIR, {
    PROVIDER_MODE: "live",
    SUNBIRD_API_URL: ups[0].url,
    KHAYA_API_URL: ups[1].url,
    HF_API_URL: ups[2].url,
    HF_HUB_URL: ups[2].url,
    RATE_LIMIT_TRANSLATE: "100000/60s",
    // Counted, never reached: the scenarios send provider_a more than Sunbird's 50 a minute.
    UPSTREAM_BUDGET_PROVIDER_A: "100000/60s",
  });
  try {
    const key = await mintKey(app.url);
    const translate = async (json: unknown = LUGANDA) => {
      const t0 = performance.now();
      const res = await fetch(`${app.url}/api/v1/translate`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      });
      const body = (await res.json()) as { detail?: { code: string } };
      return { ms: performance.now() - t0, status: res.status, code: body.detail?.code };
    };
    if (name === "warm") {
      for (const [provider, target_lang] of [
        ["provider_a", "lug"],
        ["provider_c", "sw"],
      ])
        for (let i = 0; i < 20; i++) {
          const r = await translate({ ...LUGANDA, target_lang, provider });
          if (r.status !== 200) throw new Error(`warm-up ${provider}: ${r.status}`);
        }
    }
    for (const u of ups) u.setControls({ failMode: "hang" });
    const before = ups.map((u) => u.stats.requests);
    const t0 = performance.now();
    const callers = await Promise.all(Array.from({ length: CALLERS }, () => translate()));
    const allDone = performance.now() - t0;
    const during = ups.map((u, i) => u.stats.requests - before[i]);
    const next = await translate();
    const waits = callers.map((c) => c.ms).sort((a, b) => a - b);
    return {
      scenario: name,
      callers: CALLERS,
      wait_p50_ms: Math.round(percentile(waits, 50)),
      wait_max_ms: Math.round(waits[waits.length - 1]),
      all_answered_ms: Math.round(allDone),
      answers: [...new Set(callers.map((c) => `${c.status} ${c.code ?? ""}`.trim()))],
      upstream_requests_during: { provider_a: during[0], provider_b: during[1], provider_c: during[2] },
      next_request_ms: Math.round(next.ms * 10) / 10,
      next_answer: `${next.status} ${next.code ?? ""}`.trim(),
    };
  } finally {
    await app.stop();
    await Promise.all(ups.map((u) => u.close()));
  }
}

async function main() {
  console.error(`app: ${APP_DIR}; ${CALLERS} concurrent callers`);
  const rows = [];
  for (const name of SCENARIOS) {
    const row = await scenario(name);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  console.log("| scenario | callers | wait p50 ms | wait max ms | answers | upstream requests (a/b/c) | next request ms | next answer |");
  console.log("|---|---:|---:|---:|---|---|---:|---|");
  for (const r of rows) {
    const u = r.upstream_requests_during;
    console.log(
      `| ${r.scenario} | ${r.callers} | ${r.wait_p50_ms} | ${r.wait_max_ms} | ${r.answers.join(", ")} | ${u.provider_a}/${u.provider_b}/${u.provider_c} | ${r.next_request_ms} | ${r.next_answer} |`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
