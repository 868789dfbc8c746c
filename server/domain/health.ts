import { database } from "@/server/db/client";

/** The health endpoints' database check: one round trip, its latency in milliseconds (one decimal). */
export async function pingDatabase(): Promise<{ up: true; latencyMs: number } | { up: false }> {
  const started = performance.now();
  try {
    await (await database()).$queryRaw`SELECT 1`;
    return { up: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { up: false };
  }
}
