import type { Db } from "@/server/db/client";
import { passSigner } from "@/server/pki/wallet-certificates";

/** demo.json's wallet_pass_templates: the demo shop's templates, one plain and one that needs a signed prescription. */
export type DemoWalletPassTemplate = { uid: string; requires_prescription: boolean };

const TEMPLATES = [
  { displayName: "Demo member card", requiresSignedPrescription: false },
  { displayName: "Demo treatment card", requiresSignedPrescription: true },
];

/** Creates the demo shop's wallet pass templates once (found again by name), and the sandbox pass signer chain. */
export async function seedWalletPassTemplates(db: Db, shop: { id: string; organisationId: string }): Promise<DemoWalletPassTemplate[]> {
  const signerReady = passSigner();
  const templates: DemoWalletPassTemplate[] = [];
  for (const spec of TEMPLATES) {
    const template =
      (await db.walletPassTemplate.findFirst({ where: { shopId: shop.id, displayName: spec.displayName }, orderBy: { createdAt: "asc" } })) ??
      (await db.walletPassTemplate.create({ data: { organisationId: shop.organisationId, shopId: shop.id, ...spec } }));
    templates.push({ uid: template.id, requires_prescription: template.requiresSignedPrescription });
  }
  await signerReady;
  return templates;
}
