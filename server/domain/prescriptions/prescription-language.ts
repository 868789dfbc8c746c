import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { documentLanguageOf } from "./document";
import type { PrescriptionLanguage } from "./document-words";

/** The organisation setting "prescription language": the language its prescription documents are rendered in (German by default). */
export async function prescriptionLanguageSetting(organisationId: string): Promise<PrescriptionLanguage> {
  const db = await database();
  return documentLanguageOf(await db.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { prescriptionLanguage: true } }));
}

/**
 * An admin chooses the language of the organisation's prescription documents, audited with the
 * values before and after; the organisation row is locked, so two admins saving at once are
 * recorded in order. The same choice again changes and records nothing. Documents rendered from
 * now on use it; a signed one keeps the language it was signed in.
 */
export async function changePrescriptionLanguage(organisationId: string, userId: string, language: PrescriptionLanguage): Promise<PrescriptionLanguage> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ prescriptionLanguage: string }[]>`
      SELECT "prescriptionLanguage" FROM "Organisation" WHERE "id" = ${organisationId} FOR UPDATE`;
    const before = documentLanguageOf(current);
    if (before === language && current.prescriptionLanguage === language) return language;
    await tx.organisation.update({ where: { id: organisationId }, data: { prescriptionLanguage: language } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "setting",
      entityId: organisationId,
      action: "prescription_language_changed",
      values: { from: before, to: language },
      summary: `Prescription language: ${before} → ${language}`,
      details: { from: before, to: language },
    });
    return language;
  });
}
