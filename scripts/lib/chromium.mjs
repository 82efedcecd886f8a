/**
 * The Chromium the browser tests drive: the build that the `@sparticuz/chromium` npm package ships (brotli-compressed
 * inside the package, so `npm ci` is all it takes), unpacked once per version and user into the temporary directory,
 * with the shared libraries and fonts packed beside it. CHROMIUM_PATH points at another browser instead (e.g.
 * /usr/bin/chromium).
 *
 * Run as a script it prints {"executablePath", "env"} as JSON (the Playwright config calls it that way, because a
 * config file cannot wait for the unpacking).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createBrotliDecompress } from "node:zlib";

const require = createRequire(import.meta.url);

/** @returns {Promise<{ executablePath: string, env: Record<string, string> }>} */
export async function testChromium() {
  if (process.env.CHROMIUM_PATH) return { executablePath: process.env.CHROMIUM_PATH, env: {} };
  // The package exports no package.json: find its folder from its entry point (build/index.js).
  const pkgDir = path.resolve(path.dirname(require.resolve("@sparticuz/chromium")), "..");
  const { version } = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  const dir = path.join(tmpdir(), `lugha-chromium-${version}-${process.getuid?.() ?? "user"}`);
  const executablePath = path.join(dir, "chromium");
  if (!existsSync(executablePath)) {
    const staging = `${dir}.partial-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const bin = path.join(pkgDir, "bin");
    await pipeline(createReadStream(path.join(bin, "chromium.br")), createBrotliDecompress(), createWriteStream(path.join(staging, "chromium")));
    chmodSync(path.join(staging, "chromium"), 0o755);
    for (const archive of ["swiftshader.tar.br", "al2023.tar.br", "fonts.tar.br"]) {
      const tar = path.join(staging, archive.replace(/\.br$/, ""));
      await pipeline(createReadStream(path.join(bin, archive)), createBrotliDecompress(), createWriteStream(tar));
      const r = spawnSync("tar", ["-xf", tar, "-C", staging], { stdio: "inherit" });
      if (r.status !== 0) throw new Error(`could not unpack ${archive}`);
      rmSync(tar);
    }
    // The packed fonts.conf names Lambda's folders; point fontconfig at the unpacked fonts and the system's.
    writeFileSync(
      path.join(staging, "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(dir, "fonts")}</dir>\n  <dir>/usr/share/fonts</dir>\n  <cachedir>${path.join(dir, "fonts-cache")}</cachedir>\n</fontconfig>\n`,
    );
    // Another process may have finished first; either copy is whole.
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const ldPath = [path.join(dir, "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(":");
  return { executablePath, env: { LD_LIBRARY_PATH: ldPath, FONTCONFIG_PATH: dir } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(await testChromium()));
}
