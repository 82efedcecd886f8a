// Start emulators in-process, app with --cpu-prof, mint key, hit a path for N seconds with autocannon, stop app.
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { startEmulatorServer } from "@/lib/providers/sandbox";
const [, , dbUrl = "pglite:memory", scenario = "languages", secs = "8", conns = "20"] = process.argv;
const extraEnv = process.env.PROBE_ENV ? JSON.parse(process.env.PROBE_ENV) : {};
const emus = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
const port = 3900 + Math.floor(Math.random() * 90);
const profDir = "/tmp/prof/out-" + scenario;
const child = spawn(process.execPath, [...(process.env.NOPROF ? [] : ["--cpu-prof", "--cpu-prof-dir=" + profDir]), "/work/main/node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
  cwd: "/tmp/prof/app", stdio: ["ignore", "pipe", "pipe"],
  env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", DATABASE_URL: dbUrl, PROVIDER_MODE: "live",
    SUNBIRD_API_URL: emus[0].url, KHAYA_API_URL: emus[1].url, HF_API_URL: emus[2].url, API_KEY_HASH_SECRET: "x", NEXTAUTH_SECRET: "y",
    RATE_LIMIT_TRANSLATE: "100000000/1s", RATE_LIMIT_DEFAULT: "100000000/1s", RATE_LIMIT_BATCH: "100000000/1s", ...extraEnv },
});
let out = ""; child.stdout.on("data", d => out += d); child.stderr.on("data", d => out += d);
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) { try { const r = await fetch(url + "/health"); if (r.status === 200) break; } catch {} await new Promise(r => setTimeout(r, 200)); if (i > 300) throw new Error(out); }
const key = (await (await fetch(url + "/api/v1/auth/keys", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"p"}' })).json()).api_key;
const reqs: Record<string, any> = {
  languages: { method: "GET", path: "/api/v1/languages" },
  me: { method: "GET", path: "/api/v1/auth/keys/me" },
  translate: { method: "POST", path: "/api/v1/translate", body: JSON.stringify({ text: "Good morning, how are you?", source_lang: "en", target_lang: "lug" }) },
};
const r = reqs[scenario];
const res: any = await new Promise((ok, bad) => autocannon({ url: url + r.path, method: r.method, body: r.body, connections: Number(conns), duration: Number(secs),
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } }, (e: any, x: any) => e ? bad(e) : ok(x)));
console.log(scenario, dbUrl, "rps", (res["2xx"] / res.duration).toFixed(1), "p50", res.latency.p50, "p99", res.latency.p99, "non2xx", res.non2xx, "errors", res.errors);
const usage = await (await fetch(url + "/api/v1/auth/keys/me", { headers: { authorization: `Bearer ${key}` } })).json();
console.log("requests_total", usage.requests_total, "expected ~", res.requests.total + 1);
child.kill("SIGTERM"); await new Promise(r => child.once("exit", r));
for (const e of emus) await e.close();
const errs = out.split("\n").filter(l => /error|warn/i.test(l)); if (errs.length) console.log(errs.slice(0, 5).join("\n"));
process.exit(0);
