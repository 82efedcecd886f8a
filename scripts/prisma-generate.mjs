// Runs `prisma generate` on machines that cannot download Prisma's native schema engine.
// `generate` does not need that engine, but the CLI checks for it first; pointing PRISMA_SCHEMA_ENGINE_BINARY at a
// harmless executable for this one command skips the download. It is never set globally: `migrate deploy` would then
// apply nothing. Migrations are applied by scripts/migrate.ts instead.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = ["/bin/true", "/usr/bin/true"].find((p) => existsSync(p)) ?? "";
}
const r = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
