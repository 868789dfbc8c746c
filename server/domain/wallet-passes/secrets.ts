import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { encryptionKey } from "@/server/auth/secrets";
import { openSecret, sealSecret } from "@/server/domain/webhooks/secret-box";

/**
 * The secrets of a wallet pass (docs/decisions/patients.md#wallet-passes):
 * - the barcode value: 256 random bits, an identity handle that the verify operation looks up. Stored
 *   sealed (AES-256-GCM, the webhook secret box) to be shown back as barcode_value and put in the
 *   .pkpass, and as its SHA-256 for the lookup; never logged.
 * - the download token of the pass's URLs and the PassKit authentication token: HMACs of the pass
 *   uid under the service's encryption key, each with its own label, derived on demand, never stored.
 */

export type NewBarcode = { value: string; hash: string; sealed: string };

export function newBarcode(): NewBarcode {
  const value = `rxp_${randomBytes(32).toString("base64url")}`;
  return { value, hash: barcodeHash(value), sealed: sealSecret(value) };
}

export const barcodeHash = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

export const openBarcode = (sealed: string) => openSecret(sealed);

type TokenPurpose = "download" | "passkit";

function passToken(purpose: TokenPurpose, passId: string): string {
  return createHmac("sha256", encryptionKey()).update(`wallet-pass:${purpose}:${passId}`, "utf8").digest("base64url");
}

/** The token in the pass's download URLs (no API key: the patient opens them). */
export const downloadToken = (passId: string) => passToken("download", passId);

/** The pass's authenticationToken: phones send it as `Authorization: ApplePass <token>` to the PassKit web service. */
export const passkitAuthenticationToken = (passId: string) => passToken("passkit", passId);

/** Constant-time comparison of a presented token with the pass's. */
export function isPassToken(purpose: TokenPurpose, passId: string, presented: string): boolean {
  const expected = Buffer.from(passToken(purpose, passId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
