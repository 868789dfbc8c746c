import { z } from "zod";
import { withAccessToken, type CscConnection } from "./csc-token";
import { cscPost, cscUrl } from "./csc-transport";

/**
 * The credential methods of the CSC API v2 (field names as the specification's §11.4–11.6 give them;
 * docs/decisions/prescriptions.md#remote-qualified-signatures names the references they were checked against):
 *
 *   credentials/list       {userID, credentialInfo, certificates, certInfo, authInfo}
 *                          → {credentialIDs, credentialInfos?}
 *   credentials/info       {credentialID, certificates "chain", certInfo true, authInfo true}
 *                          → {description?, key {status, algo, len, curve?},
 *                             cert {status?, certificates?, issuerDN?, serialNumber?, subjectDN?, validFrom?, validTo?},
 *                             auth {mode, expression?, objects?}, SCAL?, multisign}
 *   credentials/authorize  {credentialID, numSignatures, hashes, hashAlgorithmOID, authData [{id, value}]}
 *                          → {SAD, expiresIn?}
 */

const certInfo = z.object({
  status: z.string().optional(),
  /** Base64 DER, the end entity certificate first. */
  certificates: z.array(z.string()).optional(),
  issuerDN: z.string().optional(),
  serialNumber: z.string().optional(),
  subjectDN: z.string().optional(),
  validFrom: z.string().optional(),
  validTo: z.string().optional(),
});

const authObject = z.object({
  type: z.string(),
  id: z.string(),
  format: z.string().optional(),
  label: z.string().optional(),
  description: z.string().optional(),
  generator: z.string().optional(),
});

const credentialInfo = z.object({
  description: z.string().optional(),
  signatureQualifier: z.string().optional(),
  key: z.object({ status: z.string(), algo: z.array(z.string()), len: z.coerce.number().optional(), curve: z.string().optional() }),
  cert: certInfo.optional(),
  auth: z.object({ mode: z.string(), expression: z.string().optional(), objects: z.array(authObject).optional() }).optional(),
  SCAL: z.string().optional(),
  multisign: z.coerce.number().int().positive().optional(),
  lang: z.string().optional(),
});
export type CscCredentialInfo = z.infer<typeof credentialInfo>;

const listAnswer = z.object({
  credentialIDs: z.array(z.string()),
  credentialInfos: z.array(credentialInfo.extend({ credentialID: z.string() })).optional(),
});
export type CscCredentialList = z.infer<typeof listAnswer>;

/** The credentials of a user at the service (their userID there), each with its end entity certificate. */
export function listCredentials(connection: CscConnection, userId: string): Promise<CscCredentialList> {
  return withAccessToken(connection, (token) =>
    cscPost(
      cscUrl(connection.baseUrl, "credentials/list"),
      { json: { userID: userId, credentialInfo: true, certificates: "single", certInfo: true, authInfo: true } },
      listAnswer,
      token,
    ),
  );
}

/** One credential: its key, its certificate with the whole chain, and how it is authorised. */
export function credentialInfoOf(connection: CscConnection, credentialId: string): Promise<CscCredentialInfo> {
  return withAccessToken(connection, (token) =>
    cscPost(
      cscUrl(connection.baseUrl, "credentials/info"),
      { json: { credentialID: credentialId, certificates: "chain", certInfo: true, authInfo: true } },
      credentialInfo,
      token,
    ),
  );
}

export type CscAuthData = { id: string; value: string }[];

const authorizeAnswer = z.object({ SAD: z.string().min(1), expiresIn: z.coerce.number().optional() });

/**
 * Signature activation for exactly these hashes (SHA-256, base64), numSignatures of them, with the
 * signer's own factors (authData: their PIN or one-time password, each by the id credentials/info
 * gave it). Returns the SAD signatures/signHash needs; the factors are not kept anywhere.
 */
export async function authorizeCredential(
  connection: CscConnection,
  request: { credentialId: string; hashes: Buffer[]; authData: CscAuthData; description?: string },
): Promise<{ sad: string; expiresInSeconds: number | null }> {
  const answer = await withAccessToken(connection, (token) =>
    cscPost(
      cscUrl(connection.baseUrl, "credentials/authorize"),
      {
        json: {
          credentialID: request.credentialId,
          numSignatures: request.hashes.length,
          hashes: request.hashes.map((h) => h.toString("base64")),
          hashAlgorithmOID: "2.16.840.1.101.3.4.2.1",
          authData: request.authData,
          ...(request.description ? { description: request.description.slice(0, 500) } : {}),
        },
      },
      authorizeAnswer,
      token,
    ),
  );
  return { sad: answer.SAD, expiresInSeconds: answer.expiresIn ?? null };
}
