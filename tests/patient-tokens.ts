/** Patient tokens for tests, signed with jose as a partner's backend would (HS256, kid in the header). */
import { SignJWT } from "jose";

export type TokenSecret = { kid: string; secret: string; audience: string };

export type TokenOptions = {
  shop_identifier?: unknown;
  shop_customer_id?: unknown;
  /** Claims to add, replace, or (undefined) leave out. */
  claims?: Record<string, unknown>;
  /** Seconds from now. */
  iat?: number;
  nbf?: number;
  exp?: number;
  audience?: string;
  kid?: string;
  alg?: string;
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function mintPatientToken(secret: TokenSecret, options: TokenOptions = {}): Promise<string> {
  const now = nowSeconds();
  const payload: Record<string, unknown> = {
    aud: options.audience ?? secret.audience,
    iat: now + (options.iat ?? 0),
    nbf: now + (options.nbf ?? 0),
    exp: now + (options.exp ?? 300),
    shop_identifier: options.shop_identifier,
    shop_customer_id: options.shop_customer_id,
    ...options.claims,
  };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? "HS256", kid: options.kid ?? secret.kid })
    .sign(new TextEncoder().encode(secret.secret));
}
