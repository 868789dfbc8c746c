/** The admin tool's shapes of patients: camelCase, uids, dates as Unix seconds; only what the Management API shows an admin. */
import type { getPatientDetailForAdmin } from "@/server/domain/patients/patient-detail";
import type { PatientSummary } from "@/server/domain/patients/queries";
import { isoDateOrNull, unix, unixOrNull } from "@/server/wire/format";

type PatientDetail = Awaited<ReturnType<typeof getPatientDetailForAdmin>>;

export function presentPatientSummary(patient: PatientSummary) {
  return {
    uid: patient.id,
    displayName: patient.displayName,
    email: patient.email,
    dateOfBirth: isoDateOrNull(patient.dateOfBirth),
    shopCustomers: patient.shopCustomers.map((c) => ({ shopIdentifier: c.shop.identifier, shopCustomerId: c.shopCustomerId })),
    createdAt: unix(patient.createdAt),
  };
}

/** The profile, its intents and its wallet passes; no barcode values or download links (the passes' identity handles stay with the shop). */
export function presentPatientDetail({ profile, intents, walletPasses }: PatientDetail) {
  return {
    uid: profile.id,
    displayName: profile.displayName,
    email: profile.email,
    firstName: profile.firstName,
    lastName: profile.lastName,
    dateOfBirth: isoDateOrNull(profile.dateOfBirth),
    createdAt: unix(profile.createdAt),
    updatedAt: unix(profile.updatedAt),
    shopCustomers: profile.shopCustomers.map((c) => ({ shopUid: c.shopId, shopIdentifier: c.shop.identifier, shopCustomerId: c.shopCustomerId, email: c.email })),
    fields: profile.properties.map((p) => ({ field: p.field.key, displayName: p.field.displayName, value: p.value, source: p.source, updatedAt: unix(p.updatedAt) })),
    intents,
    walletPasses: walletPasses.map((pass) => ({
      uid: pass.id,
      templateName: pass.templateDisplayName,
      shopIdentifier: pass.shopIdentifier,
      shopCustomerId: pass.shopCustomerId,
      status: pass.status,
      lastMessage: pass.lastMessage,
      createdAt: unix(pass.createdAt),
      revokedAt: unixOrNull(pass.deletedAt),
    })),
  };
}

export type AdminPatientDetailView = ReturnType<typeof presentPatientDetail>;
