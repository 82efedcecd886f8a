/**
 * The framework floor for the benchmark: the same Next.js build plus one bare route handler, POST /api/floor, that
 * forwards a translation to the same upstream emulator as the app and the baseline — no auth, limits, database or
 * validation — so app/floor is what Lugha costs on top of Next.js itself. The route is written into a copy of the
 * checkout only (never into the product) and built there with `next build`; BENCH_FLOOR_DIR keeps that copy so later
 * runs reuse it (delete the directory, or its .next, to rebuild).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export const FLOOR_PATH = "/api/floor";

/** Not copied: dependencies are linked, builds and local state are not the floor's business. */
const SKIP = new Set([".git", ".next", ".data", "node_modules", "test-results", ".tools"]);

// Same wire call and response shape as bench/baseline-proxy.mjs; the upstream URL comes from the app's own variable.
const ROUTE = `// Benchmark-only framework floor (bench/floor.ts). Not part of the product.
const upstream = (process.env.SUNBIRD_API_URL ?? "").replace(/\\/+$/, "");
const ISO3: Record<string, string> = { en: "eng", lug: "lug", ach: "ach", teo: "teo", nyn: "nyn", lgg: "lgg", sw: "swa" };

export async function POST(request: Request): Promise<Response> {
  const started = performance.now();
  const { text, source_lang = "en", target_lang } = await request.json();
  const res = await fetch(\`\${upstream}/tasks/translate\`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ source_language: ISO3[source_lang] ?? source_lang, target_language: ISO3[target_lang] ?? target_lang, text }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await res.json();
  if (!res.ok) return Response.json({ error: \`upstream \${res.status}\` }, { status: 502 });
  return Response.json({
    translated_text: body.output?.translated_text ?? body.output?.text,
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

/** A copy of `root` with the floor route, built; reused when `dir` already holds a build. */
export function prepareFloor(root: string, dir: string, log: (msg: string) => void): string {
  if (existsSync(path.join(dir, ".next/BUILD_ID")) && existsSync(path.join(dir, "app/api/floor/route.ts"))) {
    log(`framework floor: reusing the build in ${dir}`);
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
  writeFileSync(path.join(dir, "app/api/floor/route.ts"), ROUTE);
  log(`framework floor: building in ${dir} (a few minutes; BENCH_FLOOR_DIR=${dir} reuses it next time)`);
  // `next build` alone: the copy already has the generated Prisma client and a checked configuration.
  const r = spawnSync(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "build"], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`framework floor: next build failed in ${dir}`);
  return dir;
}
