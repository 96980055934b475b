import { defineConfig } from "prisma/config";
import { migrationAdapter, unrefLongTimers } from "./scripts/lib/prisma-cli-adapter";

// The schema reads DATABASE_URL; generate needs a syntactically valid one even when no database is involved.
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/postgres";
unrefLongTimers();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  adapter: async () => migrationAdapter(process.env.DATABASE_URL!),
});
