import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/server/config";

type Secrets = { auth_secret: string; encryption_key: string };

let cached: Secrets | undefined;

/**
 * Secrets that production sets through AUTH_SECRET and ENCRYPTION_KEY. A single-machine install
 * that sets neither gets random ones, generated once and kept in DATA_DIR/secrets.json (mode 0600),
 * so sessions and encrypted webhook secrets survive restarts.
 */
function generatedSecrets(): Secrets {
  if (cached) return cached;
  const file = path.resolve(config().DATA_DIR, "secrets.json");
  if (existsSync(file)) {
    cached = JSON.parse(readFileSync(file, "utf8")) as Secrets;
    return cached;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const fresh: Secrets = {
    auth_secret: randomBytes(32).toString("base64url"),
    encryption_key: randomBytes(32).toString("base64"),
  };
  try {
    writeFileSync(file, JSON.stringify(fresh, null, 2), { flag: "wx", mode: 0o600 });
    cached = fresh;
  } catch {
    // Another process wrote it first: use theirs.
    cached = JSON.parse(readFileSync(file, "utf8")) as Secrets;
  }
  chmodSync(file, 0o600);
  return cached;
}

export function portalAuthSecret(): string {
  return config().AUTH_SECRET ?? generatedSecrets().auth_secret;
}

/** 32-byte key for AES-256-GCM encryption of secrets at rest. */
export function encryptionKey(): Buffer {
  const configured = config().ENCRYPTION_KEY;
  const raw = configured ?? generatedSecrets().encryption_key;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, hex or base64 encoded");
  return key;
}
