import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

/** The repository these tests run in. */
export const REPO = path.resolve(import.meta.dirname, "../..");

/**
 * Copies the checkout into `to` as a clone of it would hold it, working-tree changes included: the tracked and the
 * untracked-but-not-ignored files (so never `.data/`, `.env*` or a build), then `node_modules` as hard links — what
 * `npm ci` installed (a plain copy when `to` is on another filesystem) — and the ignored paths in `alsoCopy` that the
 * caller reuses instead of making them again.
 */
export function copyCheckout(to: string, alsoCopy: string[] = []) {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && existsSync(path.join(REPO, f)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(to, file), { verbatimSymlinks: true });
  }
  try {
    execFileSync("cp", ["-al", path.join(REPO, "node_modules"), path.join(to, "node_modules")], { stdio: "ignore" });
  } catch {
    // The temporary directory is on another filesystem (no hard links there): a plain copy.
    rmSync(path.join(to, "node_modules"), { recursive: true, force: true });
    execFileSync("cp", ["-a", path.join(REPO, "node_modules"), path.join(to, "node_modules")]);
  }
  for (const relative of alsoCopy) {
    mkdirSync(path.dirname(path.join(to, relative)), { recursive: true });
    cpSync(path.join(REPO, relative), path.join(to, relative), { recursive: true, verbatimSymlinks: true });
  }
}
