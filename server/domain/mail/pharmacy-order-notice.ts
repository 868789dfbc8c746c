import { config } from "@/server/config";
import type { Tx } from "@/server/db/client";
import { mailerConfigured } from "@/server/mail/smtp";
import { queueMail } from "./outbox";

/**
 * The notice to an order's pharmacy_email that its pharmacy order was created: the pharmacy order's
 * name, its pharmacy, how many items, and a link to it in the pharmacy portal. No patient or
 * prescription data: the portal shows those after signing in, to whom may see them. In German,
 * the pharmacies' language. docs/decisions/operations.md#e-mail.
 */
export async function queuePharmacyOrderNotice(
  tx: Tx,
  notice: { organisationId: string; to: string; pharmacyOrderId: string; pharmacyOrderName: string; pharmacyId: string; itemCount: number },
): Promise<string | null> {
  if (!mailerConfigured()) return null;
  const pharmacy = await tx.pharmacy.findUniqueOrThrow({ where: { id: notice.pharmacyId }, select: { displayName: true, organisation: { select: { displayName: true } } } });
  return queueMail(tx, {
    organisationId: notice.organisationId,
    to: notice.to,
    locale: "de",
    subjectId: notice.pharmacyOrderId,
    template: {
      kind: "pharmacy_order_created",
      organisation: pharmacy.organisation.displayName,
      pharmacy: pharmacy.displayName,
      orderName: notice.pharmacyOrderName,
      itemCount: notice.itemCount,
      link: `${config().baseUrl}/pharmacy/orders/${encodeURIComponent(notice.pharmacyOrderId)}`,
    },
  });
}
