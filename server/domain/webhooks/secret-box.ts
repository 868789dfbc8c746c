import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { encryptionKey } from "@/server/auth/secrets";

/**
 * Webhook secrets and custom header values at rest: AES-256-GCM with the configured ENCRYPTION_KEY.
 * Stored as "v1.<iv>.<tag>.<ciphertext>" (base64url), so a key rotation can add a "v2" later.
 */
export function sealSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("unknown sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** A new signing secret: 256 random bits, shown to the subscriber once. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
