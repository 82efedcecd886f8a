/**
 * The framework floor for the benchmark: the same Next.js build plus one bare route handler, POST /api/floor, that
 * forwards a translation to the same upstream emulator as the app and the baseline — no auth, limits, database or
 * validation — so app/floor is what Lugha costs on top of Next.js itself. The route is written into a copy of the
 * checkout only (never into the product) and built there with `next build`, one copy per client (below):
 * BENCH_FLOOR_DIR=<dir> keeps them as <dir>/fetch and <dir>/node-http so later runs reuse them (each rebuilt when its
 * route differs; delete the directory to force it).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export const FLOOR_PATH = "/api/floor";

/** Not copied: dependencies are linked, builds and local state are not the floor's business. */
const SKIP = new Set([".git", ".next", ".data", "node_modules", "test-results", ".tools"]);

/**
 * How the floor's route sends the upstream call: `fetch`, as a route handler ordinarily would (the floor the
 * performance target was set against), or `node-http`, node:http with a keep-alive agent, the transport Lugha's own
 * provider calls use (lib/kit/upstream-fetch.ts) — app/floor then compares everything else.
 */
export type FloorClient = "fetch" | "node-http";
export const FLOOR_CLIENTS: readonly FloorClient[] = ["node-http", "fetch"];

const FORWARD: Record<FloorClient, string> = {
  fetch: `async function forward(body: string): Promise<{ ok: boolean; status: number; json: any }> {
  const res = await fetch(\`\${upstream}/tasks/translate\`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  return { ok: res.ok, status: res.status, json: await res.json() };
}`,
  "node-http": `import http from "node:http";
const agent = new http.Agent({ keepAlive: true });
function forward(body: string): Promise<{ ok: boolean; status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
    const req = http.request(\`\${upstream}/tasks/translate\`, { method: "POST", headers, agent, signal: AbortSignal.timeout(15_000) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        try {
          resolve({ ok: status >= 200 && status < 300, status, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}`,
};

// Same wire call and response shape as bench/baseline-proxy.mjs; the upstream URL comes from the app's own variable.
function route(client: FloorClient): string {
  return `// Benchmark-only framework floor (bench/floor.ts, client: ${client}). Not part of the product.
const upstream = (process.env.SUNBIRD_API_URL ?? "").replace(/\\/+$/, "");
const ISO3: Record<string, string> = { en: "eng", lug: "lug", ach: "ach", teo: "teo", nyn: "nyn", lgg: "lgg", sw: "swa" };

${FORWARD[client]}

export async function POST(request: Request): Promise<Response> {
  const started = performance.now();
  const { text, source_lang = "en", target_lang } = await request.json();
  const res = await forward(
    JSON.stringify({ source_language: ISO3[source_lang] ?? source_lang, target_language: ISO3[target_lang] ?? target_lang, text }),
  );
  if (!res.ok) return Response.json({ error: \`upstream \${res.status}\` }, { status: 502 });
  return Response.json({
    translated_text: res.json.output?.translated_text ?? res.json.output?.text,
    detected_source_lang: source_lang,
    target_lang,
    model_used: "provider_a/sunflower",
    provider: "provider_a",
    quality_score: 0.92,
    latency_ms: Math.round(performance.now() - started),
    characters_translated: text.length,
  });
}
`;
}

/** A copy of `root` with the floor route, built; reused when `dir` already holds a build. */
export function prepareFloor(root: string, dir: string, log: (msg: string) => void, client: FloorClient = "fetch"): string {
  const routeFile = path.join(dir, "app/api/floor/route.ts");
  const source = route(client);
  if (existsSync(path.join(dir, ".next/BUILD_ID")) && existsSync(routeFile) && readFileSync(routeFile, "utf8") === source) {
    log(`framework floor (${client}): reusing the build in ${dir}`);
    return dir;
  }
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(root)) {
    if (!SKIP.has(name)) cpSync(path.join(root, name), path.join(dir, name), { recursive: true, verbatimSymlinks: true });
  }
  // Hard links: Turbopack refuses a node_modules symlink that points outside the project; a symlink is the fallback
  // when the copy is on another file system.
  if (!existsSync(path.join(dir, "node_modules"))) {
    const linked = spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
    if (linked.status !== 0) symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  }
  mkdirSync(path.join(dir, "app/api/floor"), { recursive: true });
  writeFileSync(routeFile, source);
  log(`framework floor (${client}): building in ${dir} (a few minutes; BENCH_FLOOR_DIR=${path.dirname(dir)} reuses it next time)`);
  // `next build` alone: the copy already has the generated Prisma client and a checked configuration.
  const r = spawnSync(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "build"], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`framework floor: next build failed in ${dir}`);
  return dir;
}
