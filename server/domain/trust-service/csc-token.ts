import { createHash } from "node:crypto";
import { z } from "zod";
import { CscCallError, cscPost, cscUrl } from "./csc-transport";

/**
 * Service authorization with the organisation's OAuth2 client (CSC API v2 §8.3.3, "oauth2/token"
 * with grant_type client_credentials, RFC 6749 §4.4): client_id and client_secret in the form body
 * (client_secret_post), the answer {access_token, token_type "Bearer", expires_in}. A token is kept
 * in this process until shortly before it expires, by endpoint, client and secret; a call the
 * service refuses with 401 drops it and is tried once more with a new one.
 */
export type CscConnection = {
  baseUrl: string;
  /** The token endpoint; null: {baseUrl}oauth2/token. */
  tokenUrl: string | null;
  clientId: string;
  clientSecret: string;
};

/** A failure of the token request itself (the organisation's client refused, or the endpoint unreachable). */
export class CscTokenError extends CscCallError {
  constructor(cause: CscCallError) {
    super(cause.kind, cause.message, cause.httpStatus, cause.error, cause.description);
  }
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
});

/** Tokens are renewed this long before the service says they expire. */
const EARLY_MS = 30_000;
const DEFAULT_LIFETIME_S = 3600;
const tokens = new Map<string, { token: string; until: number }>();

const cacheKey = (c: CscConnection) =>
  createHash("sha256").update(`${tokenUrlOf(c)}\n${c.clientId}\n${c.clientSecret}`).digest("base64url");

export const tokenUrlOf = (c: CscConnection): URL => (c.tokenUrl ? new URL(c.tokenUrl) : cscUrl(c.baseUrl, "oauth2/token"));

/** A new access token (not cached): what "Test connection" asks for. */
export async function requestAccessToken(connection: CscConnection): Promise<{ token: string; expiresInSeconds: number }> {
  const answer = await cscPost(
    tokenUrlOf(connection),
    { form: { grant_type: "client_credentials", client_id: connection.clientId, client_secret: connection.clientSecret } },
    tokenAnswer,
  ).catch((error: unknown) => {
    throw error instanceof CscCallError ? new CscTokenError(error) : error;
  });
  if (answer.token_type && answer.token_type.toLowerCase() !== "bearer") {
    throw new CscTokenError(new CscCallError("malformed", `The trust service issued a ${answer.token_type} token; the CSC API uses Bearer tokens.`));
  }
  return { token: answer.access_token, expiresInSeconds: answer.expires_in ?? DEFAULT_LIFETIME_S };
}

async function accessToken(connection: CscConnection): Promise<string> {
  const key = cacheKey(connection);
  const cached = tokens.get(key);
  if (cached && cached.until > Date.now()) return cached.token;
  const fresh = await requestAccessToken(connection);
  if (tokens.size > 100) tokens.clear();
  tokens.set(key, { token: fresh.token, until: Date.now() + fresh.expiresInSeconds * 1000 - EARLY_MS });
  return fresh.token;
}

/** Runs a call with the connection's token; once more with a new token when the service says 401. */
export async function withAccessToken<T>(connection: CscConnection, call: (token: string) => Promise<T>): Promise<T> {
  const token = await accessToken(connection);
  try {
    return await call(token);
  } catch (error) {
    if (!(error instanceof CscCallError) || error instanceof CscTokenError || error.httpStatus !== 401) throw error;
    tokens.delete(cacheKey(connection));
    return call(await accessToken(connection));
  }
}
