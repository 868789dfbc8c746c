import { stopOnSignals } from "./shutdown";

/**
 * The production entry's background-work process (scripts/serve.ts, cluster role `jobs`): the
 * start-up (migrations, the sandbox seed), then the scheduled jobs and the webhook and task runners
 * until SIGTERM or SIGINT, which stop them (waiting for work in flight) and close the database.
 * Tells its parent `{ rx: "jobs-ready" }` once started, when it has one.
 */
export async function runBackgroundWork(): Promise<void> {
  const { startService, prepareStopService } = await import("@/server/startup");
  const stopService = await prepareStopService();
  // Generated secrets (DATA_DIR/secrets.json, when AUTH_SECRET or ENCRYPTION_KEY is unset) exist
  // before any HTTP worker starts, so no two workers race to write them.
  const { encryptionKey, portalAuthSecret } = await import("@/server/auth/secrets");
  portalAuthSecret();
  encryptionKey();
  await startService();
  stopOnSignals(stopService);
  process.send?.({ rx: "jobs-ready" });
}
