import { config } from "@/server/config";
import { database } from "@/server/db/client";

/**
 * Runs once when the Next.js server starts (instrumentation.ts): opens the database, which applies
 * pending migrations, and on an empty database creates the sandbox organisation and .data/demo.json.
 */
export async function startService(): Promise<void> {
  const db = await database();
  if (config().SEED_ON_START) {
    const { seedSandboxIfEmpty } = await import("@/server/sandbox/seed");
    await seedSandboxIfEmpty(db);
  }
}
