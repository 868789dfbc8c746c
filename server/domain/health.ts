import { databaseDriver } from "@/server/db/client";

/**
 * The health endpoints' database check: one round trip, its latency in milliseconds (one decimal).
 * Through the driver: a prepared `SELECT 1` costs a fraction of Prisma's $queryRaw (monitors poll it).
 */
export async function pingDatabase(): Promise<{ up: true; latencyMs: number } | { up: false }> {
  const started = performance.now();
  try {
    await (await databaseDriver()).query("SELECT 1", []);
    return { up: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { up: false };
  }
}
