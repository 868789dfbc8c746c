import pg from "pg";
import { config } from "@/server/config";
import { databaseDriver } from "@/server/db/client";
import { log } from "@/server/log";

const RECONNECT_MS = 1_000;

/**
 * LISTEN on a notification channel (NOTIFY from a trigger, delivered at commit): PGlite's own
 * listener in the embedded database; on PostgreSQL a dedicated connection that reconnects after it
 * is lost and then calls `onNotify` once for whatever committed while it was not listening. Returns
 * the function that stops listening. Listeners still poll: a notification is a wake-up, not a queue.
 */
export async function listenForNotifications(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid notification channel: ${channel}`);
  const driver = await databaseDriver();
  if (driver.kind === "pglite") return driver.pglite.listen(channel, onNotify);
  let client: pg.Client | null = null;
  let closed = false;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: config().DATABASE_URL });
    c.on("notification", onNotify);
    c.on("error", (error) => {
      log.warn("notification listener lost its connection; reconnecting", { channel, error: error.message });
      void c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect().catch(() => undefined), RECONNECT_MS).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
    onNotify(); // whatever committed while we were not listening
  };
  await connect();
  return async () => {
    closed = true;
    await client?.end();
  };
}
