/**
 * Generates the next migration from the change of prisma/schema.prisma since the last migration.
 *   npm run db:diff -- <name>
 * prisma/migrations/schema.snapshot.prisma is the schema as of the last migration (one snapshot,
 * moved on by each new migration), so the diff is schema-to-schema and never touches a database.
 * Hand-written SQL (triggers, partial indexes) may be appended to the generated migration.sql before
 * it is committed; applied migrations never change.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrationsDir, schemaSnapshot } from "../server/db/migrate";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:diff -- <migration_name>");
  process.exit(2);
}

const from = existsSync(schemaSnapshot) ? ["--from-schema-datamodel", schemaSnapshot] : ["--from-empty"];

const sql = execFileSync(
  "npx",
  ["prisma", "migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
  { encoding: "utf8" },
);
if (!/\b(CREATE|ALTER|DROP)\b/.test(sql)) {
  console.log("No schema change since the last migration.");
  process.exit(0);
}

const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), sql);
copyFileSync("prisma/schema.prisma", schemaSnapshot);
console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
