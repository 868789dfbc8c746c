/** Inputs of the admin tool's settings procedures, shared with the forms (zod, server/wire and the generated enums only). */
import { z } from "zod";
import { HiddenSkuType } from "@/server/db/generated/enums";
import { PRESCRIPTION_LANGUAGES } from "@/server/domain/prescriptions/document-words";
import { text, uid } from "@/server/wire/schemas";

// Types and sources of profile fields are the domain's (profile-fields.ts): the list procedure hands
// them to the form, and the domain refuses others as field errors.
const profileField = { displayName: text(200), type: z.string().trim().min(1).max(40), source: z.string().trim().min(1).max(40) };
export const addProfileFieldInput = z.object({ key: z.string().trim().min(1).max(64), ...profileField });
export const changeProfileFieldInput = z.object({ fieldUid: uid(), ...profileField });
export const profileFieldUidInput = z.object({ fieldUid: uid() });

export const HIDDEN_SKU_TYPE_LABELS: Record<HiddenSkuType, string> = {
  NONE: "None (every SKU visible)",
  DIGITAL: "Digital SKUs hidden",
  PHYSICAL: "Physical SKUs hidden",
};
export const changeHiddenSkuTypeInput = z.object({ pharmacyUid: uid(), hiddenSkuType: z.enum(HiddenSkuType) });

export const createTokenSecretInput = z.object({ displayName: text(200), audience: text(200).optional() });
export const tokenSecretUidInput = z.object({ secretUid: uid() });

const template = { displayName: text(200), requiresSignedPrescription: z.boolean() };
export const createWalletPassTemplateInput = z.object({ shopUid: uid(), ...template });
export const changeWalletPassTemplateInput = z.object({ templateUid: uid(), ...template });
export const walletPassTemplateUidInput = z.object({ templateUid: uid() });

export const changePrescriptionLanguageInput = z.object({ language: z.enum(PRESCRIPTION_LANGUAGES) });
