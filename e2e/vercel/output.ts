import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Reads a `vercel build` output (.vercel/output, the Build Output API): its serverless functions, what each one ships
 * and how large it is. Routes with the same settings share one function: Vercel's Next.js builder writes it once and
 * links the others to it, so a function here is a directory, with the routes served by it.
 */
export interface BuiltFunction {
  /** The .func directory the routes link to, relative to output/functions. */
  dir: string;
  /** The routes it serves ("api/v1/translate", …; `.rsc` and prerender twins left out). */
  routes: string[];
  config: { runtime?: string; maxDuration?: number; filePathMap?: Record<string, string>; [key: string]: unknown };
  /** Every file the function ships, as its path inside the function. */
  files: string[];
  /** Uncompressed bytes of those files. */
  bytes: number;
}

export function readFunctions(projectDir: string): BuiltFunction[] {
  const root = path.join(projectDir, ".vercel", "output", "functions");
  const byDir = new Map<string, BuiltFunction>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (!entry.endsWith(".func")) {
        if (lstatSync(full).isDirectory()) visit(full);
        continue;
      }
      const real = realpathSync(full);
      const route = path.relative(root, full).replace(/\.func$/, "");
      const key = path.relative(root, real);
      let fn = byDir.get(key);
      if (!fn) {
        const config = JSON.parse(readFileSync(path.join(real, ".vc-config.json"), "utf8"));
        const files = new Map<string, number>();
        const walk = (d: string) => {
          for (const e of readdirSync(d, { withFileTypes: true })) {
            const p = path.join(d, e.name);
            if (e.isDirectory()) walk(p);
            else if (e.name !== ".vc-config.json") files.set(path.relative(real, p), statSync(p).size);
          }
        };
        walk(real);
        // Files the builder did not copy: mapped from the project directory.
        for (const [inside, source] of Object.entries((config.filePathMap ?? {}) as Record<string, string>)) {
          files.set(inside, statSync(path.join(projectDir, source)).size);
        }
        fn = { dir: key, routes: [], config, files: [...files.keys()], bytes: [...files.values()].reduce((a, b) => a + b, 0) };
        byDir.set(key, fn);
      }
      if (!/\.(rsc|prefetch)/.test(route) && !route.includes(".segments")) fn.routes.push(route);
    }
  };
  visit(root);
  return [...byDir.values()];
}

/** The function serving a route ("api/v1/translate"), if any. */
export function functionOf(functions: BuiltFunction[], route: string): BuiltFunction | undefined {
  return functions.find((f) => f.routes.includes(route));
}

export const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
