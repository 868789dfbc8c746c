import { config } from "./config";
import { closeDatabase, database, databaseDriver } from "@/server/db/client";
import { keepEmbeddedStatisticsFresh } from "@/server/db/maintenance";
import { log } from "@/server/log";

/**
 * Runs once when a server process starts (instrumentation.ts in each Next.js server; the production
 * entry's primary process, scripts/serve.ts): opens the database, which applies pending migrations,
 * and on an empty database creates the sandbox organisation and .data/demo.json; then starts the
 * background work unless BACKGROUND_JOBS is off (the entry's HTTP workers, whose primary runs it).
 */
export async function startService(): Promise<void> {
  // An unusable QES_TRUST_ANCHORS stops the start with a message that says what is wrong.
  (await import("@/server/domain/prescriptions/trust-anchors")).configuredTrustAnchors();
  const db = await database();
  if (!config().BACKGROUND_JOBS) return;
  // Connector header values stored in plain text before they were sealed (issue 36): sealed now.
  await (await import("@/server/domain/pharmacy-system/registry")).sealPlainConnectorHeaders();
  keepEmbeddedStatisticsFresh(await databaseDriver());
  if (config().SEED_ON_START) {
    const { seedSandboxIfEmpty } = await import("@/server/sandbox/seed");
    await seedSandboxIfEmpty(db);
  }
  // Background jobs run in this process unless Inngest drives them.
  (await import("@/server/jobs/embedded-runner")).startEmbeddedJobs();
  // Webhooks: this process always fans committed events out; it makes the attempts unless Inngest does.
  const { announceDeliveries } = await import("@/server/jobs/webhook-delivery");
  const { startWebhookRunner } = await import("@/server/jobs/webhook-runner");
  await startWebhookRunner(announceDeliveries);
  // Background tasks (prescription.render, …): run here, or announced to Inngest which runs them.
  const { startTaskRunner } = await import("@/server/jobs/task-runner");
  await startTaskRunner();
}

/**
 * Graceful shutdown's last step, after the HTTP server has finished its requests: stops the
 * background work of this process (waiting for what is in flight) and closes the database. The
 * runners live on globalThis, so this stops them whichever copy of the modules started them (the
 * Next.js bundle's or the entry's).
 */
export async function stopService(): Promise<void> {
  await (await prepareStopService())();
}

/**
 * stopService with everything it needs already loaded: the production entry takes it at start-up,
 * because at Ctrl-C the terminal's SIGINT also ends tsx's compiler process, and a module loaded
 * only then could no longer be compiled (the shutdown hung on a fresh clone's cold tsx cache).
 */
export async function prepareStopService(): Promise<() => Promise<void>> {
  const [{ stopEmbeddedJobs }, { stopWebhookRunner }, { stopTaskRunner }] = await Promise.all([
    import("@/server/jobs/embedded-runner"),
    import("@/server/jobs/webhook-runner"),
    import("@/server/jobs/task-runner"),
  ]);
  return async () => {
    await Promise.allSettled([stopEmbeddedJobs(), stopWebhookRunner(), stopTaskRunner()]).then((results) => {
      for (const r of results) if (r.status === "rejected") log.warn("a background runner did not stop cleanly", { error: r.reason });
    });
    await closeDatabase();
  };
}
