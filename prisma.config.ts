import { defineConfig } from "prisma/config";

// Prisma 7 reads connection URLs from here (CLI only). The app connects through a driver adapter (lib/db).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/lugha" },
});
