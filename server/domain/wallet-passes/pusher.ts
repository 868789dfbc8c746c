import { readFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/server/config";
import { pushPassUpdates, type ApnsOutcome } from "@/server/http/apns";
import { passSigner } from "@/server/pki/wallet-certificates";

/** Tells a pass's registered devices that it changed (they then fetch it from the PassKit web service). */
export type PassUpdatePusher = { push(pushTokens: string[]): Promise<Map<string, ApnsOutcome>> };

/** The APNs host pass updates go to: WALLET_APNS_HOST, else Apple's when real certificates are configured; none with the sandbox chain. */
export function apnsHost(): string | null {
  const c = config();
  if (c.WALLET_APNS_HOST) return c.WALLET_APNS_HOST;
  return c.WALLET_SIGNER_CERT ? "api.push.apple.com" : null;
}

/**
 * The configured pusher (APNs with the pass signer as client certificate), or null when there is no
 * APNs host: then a notification is sent by updating the pass alone (docs/decisions/patients.md#wallet-passes).
 */
export function passUpdatePusher(): PassUpdatePusher | null {
  const host = apnsHost();
  if (!host) return null;
  const ca = config().WALLET_APNS_CA;
  return {
    async push(pushTokens) {
      const signer = await passSigner();
      return pushPassUpdates(
        {
          host,
          topic: signer.passTypeIdentifier,
          certPem: signer.signerCertPem,
          keyPem: signer.signerKeyPem,
          passphrase: signer.signerKeyPassphrase,
          caPem: ca ? (ca.includes("-----BEGIN") ? ca.replace(/\\n/g, "\n") : readFileSync(path.resolve(ca), "utf8")) : undefined,
        },
        pushTokens,
      );
    },
  };
}
