import { randomUUID } from "node:crypto";
import { database } from "@/server/db/client";
import { passSigner } from "@/server/pki/wallet-certificates";
import { buildPkpass } from "./pkpass";
import { toWalletPassView, walletPassSelect, type WalletPassView } from "./queries";
import { isPassToken } from "./secrets";

/**
 * Apple's PassKit web service (the pass's webServiceURL; Apple's "Wallet Passes" web service
 * reference): devices register for a pass's updates with its authenticationToken, ask which of
 * their passes changed, and fetch the latest version. Rows in WalletPassDevice.
 */

/** A pass named by pass type and serial number whose `ApplePass` token is right; null otherwise (401). Deleted passes too (served voided). */
async function authorisedPass(passTypeIdentifier: string, serialNumber: string, token: string | null): Promise<WalletPassView | null> {
  if (!token || passTypeIdentifier !== (await passSigner()).passTypeIdentifier) return null;
  if (!isPassToken("passkit", serialNumber, token)) return null;
  const db = await database();
  const row = await db.walletPass.findUnique({ where: { id: serialNumber }, select: walletPassSelect });
  return row ? toWalletPassView(row) : null;
}

export type Registration = "created" | "updated" | "unauthorized";

/** Registers a device for a live pass's updates (again: its push token is replaced). */
export async function registerPassDevice(input: {
  deviceLibraryIdentifier: string;
  passTypeIdentifier: string;
  serialNumber: string;
  token: string | null;
  pushToken: string;
}): Promise<Registration> {
  const pass = await authorisedPass(input.passTypeIdentifier, input.serialNumber, input.token);
  if (!pass || pass.deletedAt) return "unauthorized";
  const db = await database();
  const [row] = await db.$queryRaw<{ inserted: boolean }[]>`
    INSERT INTO "WalletPassDevice" ("id", "walletPassId", "deviceLibraryIdentifier", "pushToken")
    VALUES (${randomUUID()}, ${pass.id}, ${input.deviceLibraryIdentifier}, ${input.pushToken})
    ON CONFLICT ("deviceLibraryIdentifier", "walletPassId") DO UPDATE SET "pushToken" = EXCLUDED."pushToken"
    RETURNING ("xmax" = 0) AS "inserted"`;
  return row.inserted ? "created" : "updated";
}

/** Ends a device's registration for a pass; false when the token is wrong. */
export async function unregisterPassDevice(input: {
  deviceLibraryIdentifier: string;
  passTypeIdentifier: string;
  serialNumber: string;
  token: string | null;
}): Promise<boolean> {
  const pass = await authorisedPass(input.passTypeIdentifier, input.serialNumber, input.token);
  if (!pass) return false;
  const db = await database();
  await db.walletPassDevice.deleteMany({ where: { walletPassId: pass.id, deviceLibraryIdentifier: input.deviceLibraryIdentifier } });
  return true;
}

/**
 * The serial numbers of the device's passes changed after `passesUpdatedSince` (the lastUpdated tag
 * of an earlier answer: milliseconds since the epoch), and the new tag; null when none changed.
 */
export async function passesUpdatedForDevice(input: {
  deviceLibraryIdentifier: string;
  passTypeIdentifier: string;
  passesUpdatedSince: string | null;
}): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  if (input.passTypeIdentifier !== (await passSigner()).passTypeIdentifier) return null;
  const since = input.passesUpdatedSince && /^\d{1,15}$/.test(input.passesUpdatedSince) ? new Date(Number(input.passesUpdatedSince)) : null;
  const db = await database();
  const devices = await db.walletPassDevice.findMany({
    where: { deviceLibraryIdentifier: input.deviceLibraryIdentifier, ...(since ? { walletPass: { updatedAt: { gt: since } } } : {}) },
    select: { walletPass: { select: { id: true, updatedAt: true } } },
    orderBy: { createdAt: "asc" },
  });
  if (devices.length === 0) return null;
  const lastUpdated = Math.max(...devices.map((d) => d.walletPass.updatedAt.getTime()));
  return { serialNumbers: devices.map((d) => d.walletPass.id), lastUpdated: String(lastUpdated) };
}

/** The latest version of a pass for an authorised request: a deleted pass is served voided. */
export async function latestPass(input: {
  passTypeIdentifier: string;
  serialNumber: string;
  token: string | null;
}): Promise<{ pkpass: Buffer; updatedAt: Date } | null> {
  const pass = await authorisedPass(input.passTypeIdentifier, input.serialNumber, input.token);
  if (!pass) return null;
  return { pkpass: await buildPkpass(pass), updatedAt: pass.updatedAt };
}
