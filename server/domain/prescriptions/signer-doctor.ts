import type { Tx } from "@/server/db/client";
import type { QesSigner } from "@/server/pki/validate-qes-pdf";

/** Who signed a PDF, as a doctor is named: the certificate's common name, else its subject. */
export const signerNameOf = (signer: QesSigner): string => signer.commonName ?? signer.subject;

/** The organisation's doctor a PDF's signer is (found by name, or created): whom doctor_data names for a prescription signed outside. */
export async function doctorOfSigner(tx: Tx, organisationId: string, signerName: string): Promise<{ id: string }> {
  return (
    (await tx.doctor.findFirst({ where: { organisationId, displayName: signerName }, select: { id: true } })) ??
    (await tx.doctor.create({ data: { organisationId, displayName: signerName, canSignQes: true }, select: { id: true } }))
  );
}
