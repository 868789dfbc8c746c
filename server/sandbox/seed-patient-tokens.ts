import { SignJWT } from "jose";
import { verifyPatientToken } from "@/server/auth/patient-tokens";
import type { Db } from "@/server/db/client";
import { PATIENT_DATA } from "@/server/rest/families";
import { createPatientTokenSecret, revokePatientTokenSecret } from "@/server/domain/patient-tokens/secrets";

/** demo.json's patient_token_secret: what a partner's backend needs to mint patient tokens (docs/api/README.md, "The sandbox"). */
export type DemoPatientTokenSecret = {
  /** The JOSE header's kid. */
  kid: string;
  /** The HS256 key, used as its UTF-8 text. */
  secret: string;
  /** The aud claim tokens must carry. */
  audience: string;
  /** The request header that carries the token. */
  header: string;
};

const NAME = "Sandbox: patient tokens";

/** A token of the previous secret for the demo shop, verified as a request's would be. */
async function stillWorks(previous: DemoPatientTokenSecret, organisationId: string, shopIdentifier: string): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ shop_identifier: shopIdentifier, shop_customer_id: "sandbox-seed-check" })
    .setProtectedHeader({ alg: "HS256", kid: previous.kid })
    .setAudience(previous.audience)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 60)
    .sign(new TextEncoder().encode(previous.secret));
  const verified = await verifyPatientToken(token);
  return "scope" in verified && verified.scope.organisationId === organisationId;
}

/**
 * The sandbox organisation's patient token secret. Idempotent: the secret of demo.json is kept while
 * it still verifies tokens for the demo shop; otherwise the slot's old secrets are revoked and a new
 * one is created.
 */
export async function seedPatientTokenSecret(
  db: Db,
  organisationId: string,
  shopIdentifier: string,
  previous: DemoPatientTokenSecret | undefined,
): Promise<DemoPatientTokenSecret> {
  if (previous?.kid && previous.secret && previous.audience && (await stillWorks(previous, organisationId, shopIdentifier))) {
    return { ...previous, header: PATIENT_DATA.patientTokenHeader! };
  }
  const stale = await db.patientTokenSecret.findMany({ where: { organisationId, displayName: NAME, revokedAt: null }, select: { id: true } });
  for (const { id } of stale) await revokePatientTokenSecret(organisationId, id);
  const created = await createPatientTokenSecret({ organisationId, displayName: NAME });
  return { kid: created.id, secret: created.secret, audience: created.audience, header: PATIENT_DATA.patientTokenHeader! };
}
