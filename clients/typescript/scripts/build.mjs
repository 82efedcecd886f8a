/**
 * Builds the publishable package into dist/ (run by `npm run build -w @lugha/client`, by the root's `prepare` on `npm ci` /
 * `npm install`, and by `npm pack` / `npm publish`):
 *   index.js   ESM   } the library, bundled from src/ by esbuild with openapi-fetch inside (its CommonJS default export
 *   index.cjs  CJS   } does not survive esbuild's ESM-to-CJS interop); openapi-fetch stays a dependency for its types
 *   cli.js     the `lugha` command (ESM, with its shebang)
 *   *.d.ts     declarations for `import`, emitted by tsc from src/; schema.d.ts is the generated API types
 *   *.d.cts    the same declarations for `require` (TypeScript reads a .d.ts in a "type": "module" package as ESM)
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, "dist");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const started = Date.now();

rmSync(dist, { recursive: true, force: true });

const common = { bundle: true, target: "node20", logLevel: "warning", absWorkingDir: root };
await Promise.all([
  build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/index.js", format: "esm", platform: "neutral" }),
  build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/index.cjs", format: "cjs", platform: "neutral" }),
  build({
    ...common,
    entryPoints: ["src/cli.ts"],
    outfile: "dist/cli.js",
    format: "esm",
    platform: "node",
    banner: { js: "#!/usr/bin/env node" },
    define: { __LUGHA_VERSION__: JSON.stringify(pkg.version) },
  }),
]);

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
try {
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit" });
} catch {
  console.error("@lugha/client: tsc could not emit the declarations (errors above)");
  process.exit(1);
}

// The declarations import the generated types from ../generated/schema.js: shipped beside them as ./schema.d.ts.
copyFileSync(path.join(root, "generated", "schema.d.ts"), path.join(dist, "schema.d.ts"));
const relativeJs = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+?)\.js(["'])/g;
for (const file of readdirSync(dist)) {
  if (!file.endsWith(".d.ts")) continue;
  const esm = readFileSync(path.join(dist, file), "utf8").replaceAll("../generated/schema.js", "./schema.js");
  writeFileSync(path.join(dist, file), esm);
  writeFileSync(path.join(dist, file.replace(/\.d\.ts$/, ".d.cts")), esm.replace(relativeJs, "$1$2.cjs$3"));
}

console.log(`@lugha/client ${pkg.version}: built ${readdirSync(dist).sort().join(", ")} in ${Date.now() - started} ms`);
