import type { WalletPassView } from "@/server/domain/wallet-passes/queries";
import type { PassVerification } from "@/server/domain/wallet-passes/verify-pass";
import { z } from "zod";
import { unix, unixField, unixOrNull } from "@/server/wire/format";

export const walletPassTemplateSchema = z.object({
  uid: z.string(),
  display_name: z.string(),
  pass_type: z.string(),
  shop_identifier: z.string(),
  requires_signed_prescription: z.boolean(),
});

export const walletPassSchema = z.object({
  uid: z.string(),
  wallet_pass_template_uid: z.string(),
  shop_customer_id: z.string(),
  status: z.string(),
  deleted_at: unixField().nullable(),
  ios_download_url: z.string(),
  android_download_url: z.string(),
  barcode_value: z.string(),
  shop_identifier: z.string(),
  last_message: z.string().nullable(),
  created_at: unixField(),
  updated_at: unixField(),
});

export const passVerificationSchema = z.object({
  valid: z.boolean(),
  status: z.string(),
  shop_customer_id: z.string(),
  wallet_pass_uid: z.string(),
});

export const pushNotificationSchema = z.object({ uid: z.string(), wallet_pass_uid: z.string(), message: z.string(), status: z.string() });

type WalletPassTemplateView = { id: string; displayName: string; passType: string; requiresSignedPrescription: boolean; shopIdentifier: string };

export function presentWalletPassTemplate(t: WalletPassTemplateView): z.infer<typeof walletPassTemplateSchema> {
  return {
    uid: t.id,
    display_name: t.displayName,
    pass_type: t.passType,
    shop_identifier: t.shopIdentifier,
    requires_signed_prescription: t.requiresSignedPrescription,
  };
}

/**
 * The wallet pass object (spec fields first; the rest: docs/decisions/patients.md#wallet-passes).
 * android_download_url is the same signed .pkpass: Android wallet apps open it, and Google Wallet
 * would need a Google issuer account the service does not have.
 */
export function presentWalletPass(pass: WalletPassView): z.infer<typeof walletPassSchema> {
  return {
    uid: pass.id,
    wallet_pass_template_uid: pass.templateId,
    shop_customer_id: pass.shopCustomerId,
    status: pass.status,
    deleted_at: unixOrNull(pass.deletedAt),
    ios_download_url: pass.downloadUrl,
    android_download_url: pass.downloadUrl,
    barcode_value: pass.barcodeValue,
    shop_identifier: pass.shopIdentifier,
    last_message: pass.lastMessage,
    created_at: unix(pass.createdAt),
    updated_at: unix(pass.updatedAt),
  };
}

/** Identity handles only: no names, no e-mail addresses. */
export function presentPassVerification(v: PassVerification): z.infer<typeof passVerificationSchema> {
  return { valid: v.valid, status: v.status, shop_customer_id: v.shopCustomerId, wallet_pass_uid: v.walletPassId };
}

export function presentPushNotification(n: { id: string; walletPassId: string; message: string; status: string }): z.infer<typeof pushNotificationSchema> {
  return { uid: n.id, wallet_pass_uid: n.walletPassId, message: n.message, status: n.status };
}
