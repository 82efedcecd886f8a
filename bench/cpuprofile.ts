/**
 * Summarises a V8 .cpuprofile (what `node --cpu-prof` writes): the functions with the most self time and the most
 * inclusive time (self + everything they called, each sample counted once per function even under recursion), and
 * the share of each package / our own code.
 *
 *   npx tsx bench/cpuprofile.ts <file.cpuprofile> [top=30] [filter-regexp] [--window=SECONDS]
 *
 * --window keeps only the busiest stretch of that many seconds (the fewest idle samples), so start-up, migrations and
 * the minutes the process waited while other targets were measured do not dilute the request path.
 *
 * The filter keeps only the frames whose URL matches (for example `lib/|app/` for our own code in the build's chunks,
 * whose source paths survive in the function URLs of the server chunks).
 *
 *   npx tsx bench/cpuprofile.ts <b.cpuprofile> --against=<a.cpuprofile> --per-request=<µsA>,<µsB> [top] [--window=S]
 *
 * compares two profiles (the app's and a floor's, say) function by function in microseconds per request: each
 * profile's busy samples are scaled to the CPU per request the benchmark measured for it (its `CPU ms/req`), and the
 * functions are listed by how much more they cost in B. Frames are named through the build's source maps, so two
 * builds (whose chunk names differ) compare by source.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Row {
  name: string;
  selfMs: number;
  totalMs: number;
}

const maps = new Map<string, SourceMap | undefined>();

/** The build's chunks are minified; their source maps (next to them in .next) give back the file and function. */
function original(url: string, line: number, column: number): string | undefined {
  if (!url.includes("/.next/")) return undefined;
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (!maps.has(file)) maps.set(file, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))) : undefined);
  const entry = maps.get(file)?.findEntry(line, column);
  if (!entry || !("originalSource" in entry)) return undefined;
  const source = entry.originalSource.replace(/^.*\[project\]\//, "").replace(/^.*\/node_modules\//, "nm:");
  const name = (entry as { name?: string }).name;
  return `${name ?? "(anonymous)"} ${source}:${entry.originalLine + 1}`;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const mapped = original(url, lineNumber, columnNumber);
  if (mapped) return mapped;
  const file = url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "nm:")
    .replace(/^.*\/\.next\//, ".next/");
  return `${functionName || "(anonymous)"} ${file ? `${file}:${lineNumber + 1}` : ""}`.trim();
}

/** Where a frame's code lives: a package, node itself, the build's chunks, or V8 (garbage collector, idle, program). */
function bucketOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node:*";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes("/.next/")) return ".next chunks (our code + bundled packages)";
  return "other";
}

/** [first, last) sample indexes of the `seconds`-long stretch with the fewest idle samples. */
function busiestWindow(profile: CpuProfile, idleIds: Set<number>, seconds: number): [number, number] {
  const at: number[] = [];
  let t = 0;
  for (const d of profile.timeDeltas) at.push((t += d));
  let best: [number, number] = [0, at.length];
  let bestBusy = -1;
  let busy = 0;
  let lo = 0;
  for (let hi = 0; hi < at.length; hi++) {
    if (!idleIds.has(profile.samples[hi])) busy++;
    while (at[hi] - at[lo] > seconds * 1e6) if (!idleIds.has(profile.samples[lo++])) busy--;
    if (busy > bestBusy) {
      bestBusy = busy;
      best = [lo, hi + 1];
    }
  }
  return best;
}

export function summarise(profile: CpuProfile, filter?: RegExp, windowSeconds?: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const [first, last] = windowSeconds ? busiestWindow(profile, idleIds, windowSeconds) : [0, profile.samples.length];
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const buckets = new Map<string, number>();
  let sampledMs = 0;
  for (let i = first; i < last; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(profile.samples[i]);
    if (!leaf) continue;
    sampledMs += ms;
    const leafName = frameName(leaf);
    self.set(leafName, (self.get(leafName) ?? 0) + ms);
    buckets.set(bucketOf(leaf), (buckets.get(bucketOf(leaf)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  }
  const rows = (m: Map<string, number>, key: "selfMs" | "totalMs") =>
    [...m.entries()]
      .filter(([name]) => !filter || filter.test(name))
      .map(([name, ms]) => ({
        name,
        selfMs: key === "selfMs" ? ms : (self.get(name) ?? 0),
        totalMs: key === "totalMs" ? ms : (total.get(name) ?? 0),
      }))
      .sort((a, b) => b[key] - a[key]);
  return {
    sampledMs,
    wallMs: (profile.endTime - profile.startTime) / 1000,
    bySelf: rows(self, "selfMs"),
    byTotal: rows(total, "totalMs"),
    buckets: [...buckets.entries()].sort((a, b) => b[1] - a[1]),
  };
}

/** Self time per frame in µs per request: the busy samples (idle left out) scaled to `usPerRequest`. */
function selfPerRequest(file: string, usPerRequest: number, windowSeconds?: number): Map<string, number> {
  const s = summarise(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, undefined, windowSeconds);
  const busyMs = s.sampledMs - (s.bySelf.find((r) => r.name === "(idle)")?.selfMs ?? 0);
  return new Map(s.bySelf.filter((r) => r.name !== "(idle)").map((r) => [r.name, (r.selfMs / busyMs) * usPerRequest]));
}

function compare(fileA: string, fileB: string, perRequest: string, top: number, windowSeconds?: number) {
  const [usA, usB] = perRequest.split(",").map(Number);
  if (!(usA > 0 && usB > 0)) throw new Error("--per-request takes the two profiles' CPU per request in µs: --per-request=580,830");
  const a = selfPerRequest(fileA, usA, windowSeconds);
  const b = selfPerRequest(fileB, usB, windowSeconds);
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((name) => ({ name, a: a.get(name) ?? 0, b: b.get(name) ?? 0 }))
    .sort((x, y) => y.b - y.a - (x.b - x.a));
  const us = (n: number) => n.toFixed(1).padStart(7);
  const out = [`µs of self time per request: B − A, A (${fileA}), B (${fileB})`];
  for (const r of rows.slice(0, top)) out.push(`${us(r.b - r.a)} ${us(r.a)} ${us(r.b)}  ${r.name}`);
  process.stdout.write(`${out.join("\n")}\n`);
}

function main() {
  const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
  const [file, topArg, filterArg] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const windowSeconds = Number(flags.find((f) => f.startsWith("--window="))?.slice(9)) || undefined;
  const against = flags.find((f) => f.startsWith("--against="))?.slice(10);
  if (file && against) {
    compare(against, file, flags.find((f) => f.startsWith("--per-request="))?.slice(14) ?? "", Number(topArg ?? 40), windowSeconds);
    return;
  }
  if (!file) {
    process.stderr.write(
      "usage: tsx bench/cpuprofile.ts <file.cpuprofile> [top] [filter-regexp] [--window=S] [--against=<a.cpuprofile> --per-request=<µsA>,<µsB>]\n",
    );
    process.exit(2);
  }
  const top = Number(topArg ?? 30);
  const s = summarise(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, filterArg ? new RegExp(filterArg) : undefined, windowSeconds);
  const pct = (ms: number) => `${((ms / s.sampledMs) * 100).toFixed(1).padStart(5)} %`;
  const out: string[] = [
    `sampled ${s.sampledMs.toFixed(0)} ms${windowSeconds ? ` (busiest ${windowSeconds} s)` : ""} of ${s.wallMs.toFixed(0)} ms wall`,
    "",
    "by package / area (self):",
  ];
  for (const [name, ms] of s.buckets.slice(0, 15)) out.push(`  ${pct(ms)}  ${name}`);
  out.push("", `top ${top} by self time:`);
  for (const r of s.bySelf.slice(0, top)) out.push(`  ${pct(r.selfMs)} self ${pct(r.totalMs)} total  ${r.name}`);
  out.push("", `top ${top} by inclusive time:`);
  for (const r of s.byTotal.slice(0, top)) out.push(`  ${pct(r.totalMs)} total ${pct(r.selfMs)} self  ${r.name}`);
  process.stdout.write(`${out.join("\n")}\n`);
}

if (process.argv[1]?.endsWith("cpuprofile.ts")) main();
