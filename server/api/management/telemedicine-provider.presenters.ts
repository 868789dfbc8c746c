import type { TelemedicineProvider } from "@/server/db/generated/client";
import type { TelemedicineProviderSettings } from "@/server/domain/telemedicine/providers";

export function presentTelemedicineProvider(p: TelemedicineProvider) {
  return { uid: p.id, display_name: p.displayName, identifier: p.identifier };
}

export function presentTelemedicineProviderSettings(s: TelemedicineProviderSettings) {
  return { allow_non_qes_signed_prescriptions: s.allowNonQesSignedPrescriptions };
}
