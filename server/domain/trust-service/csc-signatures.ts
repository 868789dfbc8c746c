import { z } from "zod";
import { withAccessToken, type CscConnection } from "./csc-token";
import { CscCallError, cscPost, cscUrl } from "./csc-transport";

/**
 * signatures/signHash of the CSC API v2 (§11.9): {credentialID, SAD, hashes, hashAlgorithmOID,
 * signAlgo, operationMode "S"} → {signatures}, one base64 signature value per hash, in their order.
 * The hashes must be those credentials/authorize was given for this SAD.
 */
const signHashAnswer = z.object({ signatures: z.array(z.string().min(1)) });

export async function signHashes(
  connection: CscConnection,
  request: { credentialId: string; sad: string; hashes: Buffer[]; signAlgorithm: string },
): Promise<Buffer[]> {
  const answer = await withAccessToken(connection, (token) =>
    cscPost(
      cscUrl(connection.baseUrl, "signatures/signHash"),
      {
        json: {
          credentialID: request.credentialId,
          SAD: request.sad,
          hashes: request.hashes.map((h) => h.toString("base64")),
          hashAlgorithmOID: "2.16.840.1.101.3.4.2.1",
          signAlgo: request.signAlgorithm,
          operationMode: "S",
        },
      },
      signHashAnswer,
      token,
    ),
  );
  if (answer.signatures.length !== request.hashes.length) {
    throw new CscCallError("malformed", `The trust service returned ${answer.signatures.length} signatures for ${request.hashes.length} hashes.`);
  }
  return answer.signatures.map((s) => Buffer.from(s, "base64"));
}
