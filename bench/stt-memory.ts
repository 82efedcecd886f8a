/**
 * The server's memory while two ten-minute voice notes are transcribed at once: the production build started fresh by
 * `npm start`'s launcher (scripts/start.mjs, the heap cap and V8 flags a deployment runs with), live provider clients
 * against the loopback emulators (started in this process, so their memory is not the server's), on PostgreSQL
 * (migrated first by scripts/migrate.ts) and on PGlite (a fresh data directory, prepared by the launcher).
 *
 * Per database and provider, a new server: a key is minted, and after 3 s its idle RSS and VmHWM are read from
 * /proc/<pid>/status (summed over the process tree, as bench/run.ts does); then BENCH_STT_PARALLEL (2) copies of the
 * same OGG/Opus note (eSpeak NG speech encoded by ffmpeg, e2e/support/audio.ts) go to POST /api/v1/speech/stt at
 * once with `provider` forced, and the VmHWM is read again when both have answered (the kernel's high-water mark: the
 * highest RSS between samples included) beside the highest VmRSS sampled every 50 ms. Each answer must be a 200 whose
 * segments follow each other from 0 to the recording's end. Budgets (docs/benchmark.md "Memory"): VmHWM ≤ 512 MB on
 * PostgreSQL and ≤ 768 MB on PGlite.
 *
 *   npm run build && npx tsx bench/stt-memory.ts
 *   BENCH_STT_DATABASES=postgres BENCH_STT_PROVIDERS=provider_c BENCH_STT_SECONDS=598 npx tsx bench/stt-memory.ts
 *   npx tsx bench/stt-memory.ts --check          exits 1 when a VmHWM is over its budget or an answer is wrong
 *
 * The note is 598 s: the longest a ten-minute OGG/Opus recording can be under SPEECH_MAX_AUDIO_SECONDS (600) once the
 * codec's padding is counted. BENCH_APP_DIR runs another checkout's build (before/after comparisons).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AudioFile, longRecording, removeAudioFixtures } from "../e2e/support/audio";
import { liveEnv } from "../e2e/support/emulators";
import { freePort, waitFor } from "../e2e/support/net";
import { createDatabase, type PostgresServer, startPostgres } from "../e2e/support/postgres";
import { type EmulatorServer, startEmulatorServer } from "../lib/providers/sandbox";
import { serverOutput, treeKb } from "./proc";

const ROOT = path.resolve(import.meta.dirname, "..");
const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ROOT);
const SECONDS = Number(process.env.BENCH_STT_SECONDS ?? 598);
const PARALLEL = Number(process.env.BENCH_STT_PARALLEL ?? 2);
const DATABASES = (process.env.BENCH_STT_DATABASES ?? "postgres,pglite").split(",") as Database[];
const CHECK = process.argv.includes("--check");

type Database = "postgres" | "pglite";
/** The server's VmHWM budget per database (docs/benchmark.md "Memory"). */
const BUDGET_MB: Record<Database, number> = { postgres: 512, pglite: 768 };

/** Each provider forced on a language it serves, and the longest window it is sent (lib/providers/audio-windows.ts). */
const ROUTES = [
  { provider: "provider_a", language: "lug", windowSeconds: 120 },
  { provider: "provider_b", language: "tw", windowSeconds: 120 },
  { provider: "provider_c", language: "sw", windowSeconds: 30 },
].filter((r) => !process.env.BENCH_STT_PROVIDERS || process.env.BENCH_STT_PROVIDERS.split(",").includes(r.provider));

const CREDENTIALS = { sunbird: "eyJ.bench", khaya: "0123456789abcdef0123456789abcdef", hf: "hf_bench" };
const mb = (kb: number) => Math.round(kb / 1024);
const log = (line: string) => console.error(`[stt-memory] ${line}`);

interface Row {
  database: Database;
  provider: string;
  idleRssMb: number;
  hwmBeforeMb: number;
  peakSampledMb: number;
  hwmAfterMb: number;
  seconds: number;
  segments: number[];
  problems: string[];
}

interface Segment {
  start: number;
  end: number;
  text: string;
}

/** What is wrong with an answer (empty when it is a 200 whose segments follow each other from 0 to the end). */
function problemsOf(status: number, body: { segments?: Segment[] } | undefined, windowSeconds: number): string[] {
  if (status !== 200) return [`status ${status}`];
  const segments = body?.segments ?? [];
  if (segments.length === 0) return ["no segments"];
  const out: string[] = [];
  if (segments[0].start !== 0) out.push(`first segment starts at ${segments[0].start} s`);
  if (Math.abs(segments.at(-1)!.end - SECONDS) > 0.5) out.push(`last segment ends at ${segments.at(-1)!.end} s`);
  for (const [i, s] of segments.entries()) {
    if (s.end - s.start > windowSeconds + 0.001) out.push(`segment ${i} is ${s.end - s.start} s`);
    if (!s.text) out.push(`segment ${i} has no text`);
    if (i > 0 && s.start < segments[i - 1].end - 0.001) out.push(`segment ${i} overlaps the one before`);
  }
  return out;
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function measure(
  database: Database,
  databaseUrl: string,
  route: (typeof ROUTES)[number],
  upstreams: EmulatorServer[],
  note: AudioFile,
): Promise<Row> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output = serverOutput("app");
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: APP_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      API_KEY_HASH_SECRET: "bench-hash-secret",
      NEXTAUTH_SECRET: "bench-nextauth-secret-of-32-characters",
      NEXTAUTH_URL: url,
      ...liveEnv(upstreams, {
        SUNBIRD_API_TOKEN: CREDENTIALS.sunbird,
        KHAYA_API_KEY: CREDENTIALS.khaya,
        HF_TOKEN: CREDENTIALS.hf,
        HF_HUB_URL: upstreams[2].url,
        RATE_LIMIT_STT: "1000/60s",
      }),
    },
    stdio: output.stdio,
  });
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}: ${output.tail()}`);
        const res = await fetch(`${url}/health`);
        await res.body?.cancel();
        if (res.status !== 200) throw new Error(`/health ${res.status}`);
      },
      120_000,
      100,
    );
    const minted = await fetch(`${url}/api/v1/auth/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "stt memory" }),
    });
    if (minted.status !== 200) throw new Error(`POST /api/v1/auth/keys ${minted.status}: ${await minted.text()}`);
    const key = ((await minted.json()) as { api_key: string }).api_key;
    // After start-up's transient has been handed back (PGlite's lasts about a second).
    await new Promise((r) => setTimeout(r, 3_000));
    const pid = child.pid!;
    const idleRssMb = mb(treeKb(pid));
    const hwmBeforeMb = mb(treeKb(pid, "VmHWM"));

    let peakKb = 0;
    const sampler = setInterval(() => {
      peakKb = Math.max(peakKb, treeKb(pid));
    }, 50);
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const form = new FormData();
        form.set("audio", new Blob([note.bytes as Uint8Array<ArrayBuffer>], { type: note.contentType }), note.name);
        form.set("language", route.language);
        form.set("provider", route.provider);
        const res = await fetch(`${url}/api/v1/speech/stt`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
        const text = await res.text();
        let body: { segments?: Segment[] } | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        return { status: res.status, body, text };
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peakKb = Math.max(peakKb, treeKb(pid));
    const problems = answers.flatMap((a, i) => problemsOf(a.status, a.body, route.windowSeconds).map((p) => `upload ${i + 1}: ${p}`));
    for (const [i, a] of answers.entries()) if (a.status !== 200) log(`upload ${i + 1} answered ${a.status}: ${a.text.slice(0, 300)}`);
    return {
      database,
      provider: route.provider,
      idleRssMb,
      hwmBeforeMb,
      peakSampledMb: mb(peakKb),
      hwmAfterMb: mb(treeKb(pid, "VmHWM")),
      seconds,
      segments: answers.map((a) => a.body?.segments?.length ?? 0),
      problems,
    };
  } finally {
    await stopChild(child);
  }
}

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "lugha-stt-memory-"));
  const [sunbird, khaya, hf, note] = await Promise.all([
    startEmulatorServer("sunbird", { credential: CREDENTIALS.sunbird }),
    startEmulatorServer("khaya", { credential: CREDENTIALS.khaya }),
    startEmulatorServer("hf", { credential: CREDENTIALS.hf }),
    longRecording(SECONDS, "ogg"),
  ]);
  let pg: PostgresServer | undefined;
  const rows: Row[] = [];
  try {
    for (const database of DATABASES) {
      for (const route of ROUTES) {
        let databaseUrl: string;
        if (database === "postgres") {
          pg ??= await startPostgres();
          databaseUrl = await createDatabase(pg.adminUrl);
          const mig = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/migrate.ts"], {
            cwd: ROOT,
            env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", DATABASE_URL: databaseUrl },
            encoding: "utf8",
          });
          if (mig.status !== 0) throw new Error(`migrate: ${mig.stderr}`);
        } else databaseUrl = `pglite:${path.join(tmp, `pglite-${route.provider}`)}`;
        log(`${database}, ${route.provider}: ${PARALLEL} × ${SECONDS} s OGG/Opus at once`);
        const row = await measure(database, databaseUrl, route, [sunbird, khaya, hf], note);
        log(
          `  idle ${row.idleRssMb} MB, VmHWM ${row.hwmBeforeMb} → ${row.hwmAfterMb} MB in ${row.seconds.toFixed(1)} s${row.problems.length ? `; ${row.problems.join("; ")}` : ""}`,
        );
        rows.push(row);
      }
    }
  } finally {
    await Promise.all([sunbird.close(), khaya.close(), hf.close(), pg?.stop()]);
    rmSync(tmp, { recursive: true, force: true });
    removeAudioFixtures();
  }

  console.log(
    `\n${PARALLEL} × ${SECONDS} s OGG/Opus voice note (${(note.bytes.byteLength / 1e6).toFixed(2)} MB) to POST /api/v1/speech/stt at once, provider forced; ` +
      `a fresh \`npm start\` per row; load average ${os.loadavg()[0].toFixed(2)} at the end on ${os.cpus().length} cores`,
  );
  console.log("| database | provider | idle RSS | VmHWM before | peak RSS sampled | VmHWM after | budget | answers | segments | seconds |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const within = r.hwmAfterMb <= BUDGET_MB[r.database];
    console.log(
      `| ${r.database} | ${r.provider} | ${r.idleRssMb} MB | ${r.hwmBeforeMb} MB | ${r.peakSampledMb} MB | ${r.hwmAfterMb} MB (+${r.hwmAfterMb - r.hwmBeforeMb}) | ≤ ${BUDGET_MB[r.database]} MB: ${within ? "met" : "**not met**"} | ${r.problems.length ? r.problems.join("; ") : `${PARALLEL} × 200, covering 0–${SECONDS} s`} | ${r.segments.join(" + ")} | ${r.seconds.toFixed(1)} |`,
    );
  }
  const failed = rows.some((r) => r.problems.length > 0 || r.hwmAfterMb > BUDGET_MB[r.database]);
  if (CHECK && failed) process.exit(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
