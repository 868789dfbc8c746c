import { config } from "./config";
import { database, databaseDriver } from "@/server/db/client";
import { keepEmbeddedStatisticsFresh } from "@/server/db/maintenance";

/**
 * Runs once when the Next.js server starts (instrumentation.ts): opens the database, which applies
 * pending migrations, and on an empty database creates the sandbox organisation and .data/demo.json;
 * then starts the background jobs.
 */
export async function startService(): Promise<void> {
  // An unusable QES_TRUST_ANCHORS stops the start with a message that says what is wrong.
  (await import("@/server/domain/prescriptions/trust-anchors")).configuredTrustAnchors();
  const db = await database();
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
