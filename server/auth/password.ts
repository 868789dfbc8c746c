import { scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { hash, verify } from "@node-rs/argon2";

/**
 * Portal user passwords: argon2id (@node-rs/argon2, its defaults: 19 MiB, 2 passes, 1 lane — the
 * OWASP minimum), stored as the PHC string `$argon2id$v=19$m=…,t=…,p=…$salt$hash`. Hashes written
 * before (`scrypt$N$r$p$salt$hash`, e.g. sandbox users of an existing data directory) still verify;
 * the sign-in re-hashes them to argon2id (needsRehash).
 */
export async function hashPassword(password: string): Promise<string> {
  return hash(password.normalize("NFKC"));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith("$argon2")) {
    try {
      return await verify(stored, password.normalize("NFKC"));
    } catch {
      return false; // a malformed stored hash verifies nothing
    }
  }
  if (stored.startsWith("scrypt$")) return verifyLegacyScrypt(password, stored);
  return false;
}

/** True when a stored hash is not argon2id: after a successful sign-in it is replaced. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith("$argon2id$");
}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hashText] = stored.split("$");
  if (!salt || !hashText) return false;
  const expected = Buffer.from(hashText, "base64");
  try {
    const actual = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt, "base64"), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
