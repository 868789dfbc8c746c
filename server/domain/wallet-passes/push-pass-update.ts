import { database, type Tx } from "@/server/db/client";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { passUpdatePusher, type PassUpdatePusher } from "./pusher";

/**
 * Asks, in the caller's transaction, for the pass's registered devices to be told that it changed
 * (the wallet_pass.updated task): a refreshed pass, a revoked one (phones then fetch it voided).
 */
export async function requestPassUpdatePush(tx: Tx, walletPassId: string): Promise<void> {
  const devices = await tx.walletPassDevice.count({ where: { walletPassId } });
  if (devices > 0) await enqueueTask(tx, "wallet_pass.updated", { walletPassId });
}

/**
 * Tells every device registered for the pass to fetch it again (APNs); a device APNs reports gone
 * is unregistered. Nothing to do without a configured APNs host (docs/decisions/patients.md#wallet-passes).
 * Throws when APNs cannot be reached, so the task is retried.
 */
export async function pushPassUpdate(walletPassId: string, pusher: PassUpdatePusher | null = passUpdatePusher()): Promise<void> {
  if (!pusher) return;
  const db = await database();
  const devices = await db.walletPassDevice.findMany({ where: { walletPassId }, select: { id: true, pushToken: true } });
  if (devices.length === 0) return;
  const outcomes = await pusher.push(devices.map((d) => d.pushToken));
  const gone = devices.filter((d) => outcomes.get(d.pushToken) === "unregistered").map((d) => d.id);
  if (gone.length > 0) await db.walletPassDevice.deleteMany({ where: { id: { in: gone } } });
}
