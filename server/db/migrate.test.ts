import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { databaseDriver } from "./client";
import { applyMigrations, readMigrations, schemaSnapshot } from "./migrate";

function migrationsFolder(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rx-migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

describe("migrations", () => {
  it("cover the schema: prisma/schema.prisma is the snapshot of the last migration (else run npm run db:diff)", () => {
    expect(readFileSync("prisma/schema.prisma", "utf8"), "prisma/schema.prisma changed without a migration: npm run db:diff -- <name>").toBe(
      readFileSync(schemaSnapshot, "utf8"),
    );
  });

  it("has applied every committed migration at start, and a second run applies nothing", async () => {
    const driver = await databaseDriver();
    expect(await applyMigrations(driver)).toEqual([]);
    expect(readMigrations().length).toBeGreaterThan(0);
  });

  it("applies pending migrations in order, each once, and refuses a changed one", async () => {
    const driver = await databaseDriver();
    const dir = migrationsFolder({
      "29990101000000_a": 'CREATE TABLE "MigTestA" (id int PRIMARY KEY);',
      "29990101000001_b": 'INSERT INTO "MigTestA" VALUES (1); INSERT INTO "MigTestA" VALUES (2);',
    });
    expect(await applyMigrations(driver, readMigrations(dir))).toEqual(["29990101000000_a", "29990101000001_b"]);
    expect(await applyMigrations(driver, readMigrations(dir))).toEqual([]);
    writeFileSync(path.join(dir, "29990101000001_b", "migration.sql"), 'INSERT INTO "MigTestA" VALUES (3);');
    await expect(applyMigrations(driver, readMigrations(dir))).rejects.toThrow(/checksum mismatch/);
  });

  it("rolls back a failing migration entirely", async () => {
    const driver = await databaseDriver();
    const dir = migrationsFolder({
      "29990102000000_broken": 'CREATE TABLE "MigTestB" (id int); SELECT no_such_function();',
    });
    await expect(applyMigrations(driver, readMigrations(dir))).rejects.toThrow();
    const dirOk = migrationsFolder({ "29990102000000_broken": 'CREATE TABLE "MigTestB" (id int);' });
    expect(await applyMigrations(driver, readMigrations(dirOk))).toEqual(["29990102000000_broken"]);
  });
});
