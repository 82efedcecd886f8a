import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/*
 * The floors of lib/ (docs/architecture.md): every import of a non-test file points to its own folder, to a folder on
 * a lower floor, or to another folder of its own floor without closing a cycle. Read from the source text, so it
 * holds for type imports and dynamic import() too.
 */
const FLOORS: readonly (readonly string[])[] = [
  // 0 kits: no feature of the app; the configuration schema (every default), the shared-store kit, the database
  ["kit", "config", "store", "db", "generated"],
  // 1 the parts the features stand on: upstream clients and their policy, limits and budgets, cache, availability, keys
  ["providers", "ratelimit", "budgets", "cache", "availability", "localise", "keys"],
  // 2 the features (domains), each taking its collaborators as arguments
  ["languages", "routing", "glossaries", "translate", "speech", "detect", "usage", "portal", "catalog", "compat"],
  // 3 the composition root: every service built once from the parsed configuration
  ["server"],
  // 4 the API's composition: route manifest, wrapper, OpenAPI, portal sign-in
  ["api"],
];

const ROOT = path.resolve(import.meta.dirname, "..");
const LIB = path.join(ROOT, "lib");
const floorOf = new Map(FLOORS.flatMap((folders, floor) => folders.map((f) => [f, floor] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : sourceFiles(p);
    return /\.(ts|tsx|mts)$/.test(e.name) && !/\.test\.|test-support|\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

const folderOf = (file: string) => path.relative(LIB, file).split(path.sep)[0];

/** Every import of `file` into lib/, as the folder it lands in. */
function importedFolders(file: string): { spec: string; folder: string }[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => m[1] ?? m[2],
  );
  return specs.flatMap((spec) => {
    let target: string;
    if (spec.startsWith("@/lib/")) target = path.join(LIB, spec.slice("@/lib/".length));
    else if (spec.startsWith(".")) target = path.resolve(path.dirname(file), spec);
    else return [];
    const rel = path.relative(LIB, target);
    if (rel.startsWith("..")) return [];
    return [{ spec, folder: rel.split(path.sep)[0] }];
  });
}

const files = sourceFiles(LIB);
const edges = new Map<string, Map<string, string[]>>();
for (const file of files) {
  const from = folderOf(file);
  for (const { spec, folder } of importedFolders(file)) {
    if (folder === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const to = edges.get(from)!;
    to.set(folder, [...(to.get(folder) ?? []), `${path.relative(ROOT, file)} → ${spec}`]);
  }
}

describe("the floors of lib/", () => {
  test("every folder of lib/ has a floor", () => {
    const folders = readdirSync(LIB).filter((f) => statSync(path.join(LIB, f)).isDirectory());
    expect(folders.filter((f) => !floorOf.has(f))).toEqual([]);
    expect(readdirSync(LIB).filter((f) => !statSync(path.join(LIB, f)).isDirectory())).toEqual([]);
  });

  test("no import points to a higher floor", () => {
    const upward: string[] = [];
    for (const [from, targets] of edges) {
      for (const [to, where] of targets) {
        if ((floorOf.get(to) ?? -1) > (floorOf.get(from) ?? -1))
          upward.push(`${from} (floor ${floorOf.get(from)}) → ${to} (floor ${floorOf.get(to)}): ${where[0]}`);
      }
    }
    expect(upward).toEqual([]);
  });

  test("the folder graph has no cycle", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (folder: string, trail: string[]) => {
      if (state.get(folder) === "done") return;
      if (state.get(folder) === "open") {
        cycles.push([...trail.slice(trail.indexOf(folder)), folder].join(" → "));
        return;
      }
      state.set(folder, "open");
      for (const to of edges.get(folder)?.keys() ?? []) visit(to, [...trail, folder]);
      state.set(folder, "done");
    };
    for (const folder of edges.keys()) visit(folder, []);
    expect(cycles).toEqual([]);
  });

  test("only the configuration module reads process.env; only the top floors read the parsed configuration", () => {
    // The portal's pages and components too: they get what they need from the server side (services().config).
    const portal = [...sourceFiles(path.join(ROOT, "app")), ...sourceFiles(path.join(ROOT, "components"))];
    const readsEnv = [...files, ...portal].filter((f) => folderOf(f) !== "config" && /process\.env/.test(readFileSync(f, "utf8")));
    expect(readsEnv.map((f) => path.relative(ROOT, f))).toEqual([]);
    // config() parses the environment; below the composition root only values and CONFIG_DEFAULTS are used.
    const callsConfig = files.filter(
      (f) =>
        !["config", "server", "api"].includes(folderOf(f)) && /\bconfig\(\)/.test(readFileSync(f, "utf8").replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "")),
    );
    expect(callsConfig.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  test("the rule sees real imports (a self-check on a known edge)", () => {
    expect(edges.get("api")?.has("server")).toBe(true);
    expect(edges.get("translate")?.has("providers")).toBe(true);
  });
});
