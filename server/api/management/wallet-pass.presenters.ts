import type { WalletPassView } from "@/server/domain/wallet-passes/queries";
import type { PassVerification } from "@/server/domain/wallet-passes/verify-pass";
import { unix, unixOrNull } from "@/server/wire/format";

export function presentWalletPassTemplate(t: { id: string; displayName: string; passType: string; requiresSignedPrescription: boolean; shopIdentifier: string }) {
  return {
    uid: t.id,
    display_name: t.displayName,
    pass_type: t.passType,
    shop_identifier: t.shopIdentifier,
    requires_signed_prescription: t.requiresSignedPrescription,
  };
}

/**
 * The wallet pass object (spec fields first; the rest: docs/spec-gaps.md#issue-13-wallet-passes).
 * android_download_url is the same signed .pkpass: Android wallet apps open it, and Google Wallet
 * would need a Google issuer account the service does not have.
 */
export function presentWalletPass(pass: WalletPassView) {
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
export function presentPassVerification(v: PassVerification) {
  return { valid: v.valid, status: v.status, shop_customer_id: v.shopCustomerId, wallet_pass_uid: v.walletPassId };
}

export function presentPushNotification(n: { id: string; walletPassId: string; message: string; status: string }) {
  return { uid: n.id, wallet_pass_uid: n.walletPassId, message: n.message, status: n.status };
}
