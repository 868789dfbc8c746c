import { z } from "zod";
import type { TelemedicineProvider } from "@/server/db/generated/client";
import type { TelemedicineProviderSettings } from "@/server/domain/telemedicine/providers";

export const telemedicineProviderSchema = z.object({ uid: z.string(), display_name: z.string(), identifier: z.string() });
export const telemedicineProviderSettingsSchema = z.object({ allow_non_qes_signed_prescriptions: z.boolean() });

export function presentTelemedicineProvider(p: TelemedicineProvider): z.infer<typeof telemedicineProviderSchema> {
  return { uid: p.id, display_name: p.displayName, identifier: p.identifier };
}

export function presentTelemedicineProviderSettings(s: TelemedicineProviderSettings): z.infer<typeof telemedicineProviderSettingsSchema> {
  return { allow_non_qes_signed_prescriptions: s.allowNonQesSignedPrescriptions };
}
