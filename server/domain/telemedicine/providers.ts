import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

/**
 * The organisation's connected telemedicine providers. Connecting one and changing its name,
 * identifier or key is the admin tool's (spec); the APIs read providers and switch their settings.
 * allowNonQesSignedPrescriptions is the switch the doctor-signing rule reads
 * (server/domain/prescriptions/decisions.ts).
 */
export async function listTelemedicineProviders(organisationId: string) {
  const db = await database();
  return db.telemedicineProvider.findMany({
    where: { organisationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export type TelemedicineProviderSettings = { allowNonQesSignedPrescriptions: boolean };

export async function getTelemedicineProviderSettings(organisationId: string, providerId: string): Promise<TelemedicineProviderSettings> {
  const db = await database();
  const provider = await db.telemedicineProvider.findFirst({
    where: { id: providerId, organisationId },
    select: { allowNonQesSignedPrescriptions: true },
  });
  if (!provider) throw new NotFoundError();
  return provider;
}

/** One statement: the organisation condition is part of the update, so another organisation's provider changes nothing. */
export async function changeTelemedicineProviderSettings(
  organisationId: string,
  providerId: string,
  settings: TelemedicineProviderSettings,
): Promise<TelemedicineProviderSettings> {
  const db = await database();
  const { count } = await db.telemedicineProvider.updateMany({
    where: { id: providerId, organisationId },
    data: { allowNonQesSignedPrescriptions: settings.allowNonQesSignedPrescriptions },
  });
  if (count === 0) throw new NotFoundError();
  return settings;
}
