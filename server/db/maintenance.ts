import { log } from "@/server/log";
import type { Driver } from "./driver";

const EVERY_MS = 10 * 60_000;

/**
 * PostgreSQL keeps planner statistics fresh with autovacuum; embedded PGlite runs no background
 * workers, so without this its planner would never learn table sizes (the catalogue benchmark's
 * lists were planned as nested loops, ten times slower). Analyzes at start and every ten minutes.
 */
export function keepEmbeddedStatisticsFresh(driver: Driver): void {
  if (driver.kind !== "pglite") return;
  const analyze = () =>
    driver.exec("ANALYZE").catch((error: unknown) => log.warn("ANALYZE of the embedded database failed", { error }));
  void analyze();
  setInterval(analyze, EVERY_MS).unref();
}
