/** `pnpm db:migration <name>`: writes prisma/migrations/<UTC timestamp>_<name>/migration.sql from the schema change. */
import { mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, runPrisma } from "../packages/db/src/prisma-cli";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: pnpm db:migration <snake_case_name>   (needs DATABASE_URL: a server where a shadow database can be created)");
  process.exit(2);
}
const tmp = path.join(tmpdir(), `migration-${process.pid}.sql`);
const code = await runPrisma(["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--script", "-o", tmp]);
if (code !== 0) process.exit(code);
if (!readFileSync(tmp, "utf8").match(/CREATE|ALTER|DROP/)) {
  rmSync(tmp);
  console.log("The schema matches the migrations; nothing to write.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = path.join(repoRoot, "prisma/migrations", `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
renameSync(tmp, path.join(dir, "migration.sql"));
console.log(`Wrote ${path.relative(repoRoot, dir)}/migration.sql: review it, then pnpm db:migrate.`);
