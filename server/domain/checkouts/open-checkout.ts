import { randomUUID } from "node:crypto";
import { database, type Db, type Tx } from "@/server/db/client";
import { ConflictError, FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import type { ValidatedPdf } from "@/server/domain/orders/inline-prescriptions";
import { findOrCreateShopCustomer } from "@/server/domain/patients/shop-customers";
import { draftOrderIdForms, publicDraftOrderId } from "@/server/domain/storefront/draft-order-id";
import { prescriptionStorage } from "@/server/storage/prescription-files";
import { CHECKOUT_LIFETIME_SECONDS, type CheckoutInput, type CheckoutRequest } from "./checkout-request";
import type { OpenedCheckout, PublishedCheckout } from "./connector";
import { checkoutConnectorFor } from "./registry";

/** A checkout line resolved to the shop's catalogue. */
export type ShopLine = { skuId: string; shopSkuId: string; unitPrice: number; prescriptionRequired: boolean; shopVariationId: string | null };

export type OpenedCheckoutResult = {
  draftOrderId: string;
  /** The id the answer names (storefront/draft-order-id.ts): the Shopify draft's legacy id for a connected shop, else ours. */
  publicDraftOrderId: string;
  checkoutType: CheckoutRequest["checkoutType"];
  checkoutUrl: string | null;
  expiresAt: number;
};

type Kind = "PRESCRIPTION_CHECKOUT" | "TREATMENT_CHECKOUT";

/** What a kind of checkout adds to the common steps. */
export type CheckoutKind = {
  kind: Kind;
  /** Field errors of a line its kind refuses (all problems reported at once). */
  checkLine?(line: CheckoutInput["lines"][number], resolved: ShopLine, index: number, errors: FieldErrorCollector): void;
  /** Validates the inline PDFs (prescription checkouts), once shop and lines are known good: the PDFs by the checkout's prescriptions[].id. */
  validatePrescriptions?(db: Db): Promise<Map<string, ValidatedPdf>>;
  /** Writes in the checkout's transaction for its patient; returns the anamnesis every line carries (treatment checkouts). */
  forPatient?(tx: Tx, patientId: string): Promise<{ anamnesisId: string | null }>;
};

const DRAFT_STATUS = { reserved: "reserved", open: "open" } as const;

/**
 * The steps every checkout shares (docs/decisions/intake.md#checkouts): the shop (404 when not
 * the organisation's), the lines as SKUs the shop sells, the external order id still free, the
 * kind's inline prescriptions validated, then in
 * one transaction the reservation consumed (locked; it must be the shop's, live and unused), the
 * patient found or created for the shop customer, the draft written with its lines and its
 * prescriptions' PDFs (stored last, once nothing can refuse the checkout), and the connector's
 * checkout. Refused: nothing written. A connector that publishes over the network (Shopify) does
 * so after the commit, so no lock waits for it; when it fails, it leaves the checkout failed.
 */
export async function openCheckout(organisationId: string, input: CheckoutInput, spec: CheckoutKind): Promise<OpenedCheckoutResult> {
  const db = await database();
  const shop = await db.shop.findFirst({ where: { organisationId, identifier: input.shopIdentifier }, select: { id: true } });
  if (!shop) throw new NotFoundError();
  const connector = await checkoutConnectorFor(shop.id);

  const errors = new FieldErrorCollector();
  const lines = await shopLines(db, shop.id, input.lines);
  input.lines.forEach((line, i) => {
    const resolved = lines[i];
    if (!resolved) return errors.add(["lines", i, "sku_uid"], "No SKU with this uid in the shop.");
    spec.checkLine?.(line, resolved, i, errors);
    const problem = connector.lineProblem?.(resolved);
    if (problem) errors.add(["lines", i, "sku_uid"], problem);
  });
  // Ours are up to 18 digits; Shopify's legacy ids (a connected shop's) up to 20.
  if (input.reservedDraftOrderId !== undefined && !/^\d{1,20}$/.test(input.reservedDraftOrderId)) {
    errors.add(["reserved_draft_order_id"], "No reservation with this id in the shop.");
  }
  errors.throwIfAny();
  if (input.externalOrderId) await assertExternalOrderIdFree(db, organisationId, input.externalOrderId);
  // As intake: references first (400, 404, 409), then the costly QES validation (422), all before the transaction.
  const prescriptions = await spec.validatePrescriptions?.(db);

  const draftId = input.reservedDraftOrderId ? null : randomUUID();
  const opened = await db.$transaction(
    async (tx) => {
      const reservation = input.reservedDraftOrderId ? await consumeReservation(tx, organisationId, shop.id, input.reservedDraftOrderId) : null;
      const id = reservation?.id ?? draftId!;
      const request: CheckoutRequest = {
        checkoutType: input.checkoutType,
        prepaid: input.prepaid,
        externalOrderId: input.externalOrderId,
        shopCustomerId: input.shopCustomerId ?? input.buyerIdentity?.email?.toLowerCase() ?? `checkout-${id}`,
        patientData: input.patientData,
        buyerIdentity: input.buyerIdentity,
        delivery: input.delivery,
        transaction: input.transaction,
        billingAddress: input.billingAddress,
        shippingAddress: input.shippingAddress,
        expiresAt: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_SECONDS,
      };
      const patient = await findOrCreateShopCustomer(
        tx,
        organisationId,
        shop.id,
        { id: request.shopCustomerId, email: input.buyerIdentity?.email ?? null },
        { firstName: input.patientData.firstName, lastName: input.patientData.lastName },
      );
      // Like the names, the date of birth fills a gap of a known profile and never replaces one.
      await tx.patientProfile.updateMany({
        where: { id: patient.id, dateOfBirth: null },
        data: { dateOfBirth: new Date(Math.floor(input.patientData.dateOfBirth / 86_400) * 86_400_000) },
      });
      const { anamnesisId } = (await spec.forPatient?.(tx, patient.id)) ?? { anamnesisId: null };

      const draft = {
        kind: spec.kind,
        status: DRAFT_STATUS.open,
        holdExpiresAt: null,
        checkoutType: input.checkoutType,
        patientId: patient.id,
        shopCustomerId: request.shopCustomerId,
        request,
      };
      const select = { id: true, legacyId: true, shopifyDraftOrderGid: true } as const;
      const written = reservation
        ? await tx.draftOrder.update({ where: { id }, data: { ...draft, lines: { deleteMany: {} } }, select })
        : await tx.draftOrder.create({ data: { id, organisationId, shopId: shop.id, ...draft }, select });
      await tx.draftOrderLine.createMany({
        data: input.lines.map((line, i) => ({
          draftOrderId: id,
          skuId: lines[i]!.skuId,
          shopSkuId: lines[i]!.shopSkuId,
          quantity: line.quantity,
          unitPrice: lines[i]!.unitPrice,
          prescriptionRef: line.prescriptionId ?? null,
          anamnesisId,
        })),
      });
      await storeDraftPrescriptions(tx, id, prescriptions);

      const checkout: OpenedCheckout = {
        draftOrderId: id,
        legacyId: written.legacyId,
        shopId: shop.id,
        checkoutType: input.checkoutType,
        prepaid: input.prepaid,
      };
      return { checkout, published: await connector.createCheckout(tx, checkout), written, expiresAt: request.expiresAt };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  const published: PublishedCheckout = connector.publishCheckout ? await connector.publishCheckout(opened.checkout) : opened.published;
  return {
    draftOrderId: opened.checkout.draftOrderId,
    publicDraftOrderId: published.draftOrderId ?? publicDraftOrderId(opened.written),
    checkoutType: input.checkoutType,
    checkoutUrl: published.checkoutUrl,
    expiresAt: opened.expiresAt,
  };
}

/**
 * Each line's SKU as the shop sells it (null when it does not): a live shop SKU of a live SKU and
 * product that order intake can name (a variation id or shop SKU code); with several, the oldest.
 */
async function shopLines(db: Db, shopId: string, lines: CheckoutInput["lines"]): Promise<(ShopLine | null)[]> {
  const skuIds = [...new Set(lines.map((l) => l.skuUid))];
  const rows = await db.$queryRaw<ShopLine[]>`
    SELECT DISTINCT ON (s."id") s."id" AS "skuId", ss."id" AS "shopSkuId", ss."price" AS "unitPrice", p."prescriptionRequired", ss."shopVariationId"
      FROM "ShopSku" ss
      JOIN "Sku" s ON s."id" = ss."skuId"
      JOIN "Product" p ON p."id" = s."productId"
     WHERE ss."shopId" = ${shopId} AND s."id" = ANY(${skuIds}::text[])
       AND ss."deletedAt" IS NULL AND s."deletedAt" IS NULL AND p."deletedAt" IS NULL
       AND (ss."shopVariationId" IS NOT NULL OR ss."shopSku" IS NOT NULL)
     ORDER BY s."id", ss."createdAt", ss."id"`;
  const bySku = new Map(rows.map((r) => [r.skuId, r]));
  return lines.map((l) => bySku.get(l.skuUid) ?? null);
}

/**
 * An external order id becomes the order's external_id: it must be free of orders (409
 * order_already_exists, as intake answers) and of other live checkouts, or the confirmation
 * would fail later.
 */
async function assertExternalOrderIdFree(db: Db, organisationId: string, externalOrderId: string): Promise<void> {
  const order = await db.order.findUnique({ where: { organisationId_externalId: { organisationId, externalId: externalOrderId } }, select: { id: true } });
  if (order) throw new ConflictError("Order already exists", { code: "order_already_exists", details: { order_uid: order.id } });
  const [draft] = await db.$queryRaw<{ legacyId: bigint; shopifyDraftOrderGid: string | null }[]>`
    SELECT "legacyId", "shopifyDraftOrderGid" FROM "DraftOrder"
     WHERE "organisationId" = ${organisationId} AND "kind" <> 'RESERVATION' AND "status" IN ('open', 'completed')
       AND "request"->>'externalOrderId' = ${externalOrderId}
     LIMIT 1`;
  if (draft) {
    throw new ConflictError("A checkout with this external_order_id already exists", {
      code: "checkout_already_exists",
      details: { draft_order_id: publicDraftOrderId(draft) },
    });
  }
}

/**
 * The reservation a checkout consumes (G26: "that draft is updated instead of creating a new
 * checkout"), locked for the rest of the transaction so that of concurrent checkouts naming it one
 * wins and the others find it used. Named by the id the reservation answered with (Shopify's legacy
 * id when it has a Shopify draft, else ours; draft-order-id.ts), among the shop's drafts. Unknown,
 * another organisation's or another shop's: 400 on the field (like any unknown reference in a
 * body); used or expired: 409.
 */
async function consumeReservation(tx: Tx, organisationId: string, shopId: string, publicId: string): Promise<{ id: string }> {
  const forms = draftOrderIdForms(publicId);
  const [row] = await tx.$queryRaw<{ id: string; kind: string; status: string; live: boolean }[]>`
    SELECT "id", "kind"::text AS "kind", "status",
           coalesce("holdExpiresAt" > now()::timestamptz(3), false) AS "live"
      FROM "DraftOrder"
     WHERE "organisationId" = ${organisationId} AND "shopId" = ${shopId}
       AND ("shopifyDraftOrderGid" = ${forms.shopifyDraftOrderGid} OR ("shopifyDraftOrderGid" IS NULL AND "legacyId" = ${forms.legacyId}::bigint))
     ORDER BY ("shopifyDraftOrderGid" IS NULL)
     LIMIT 1
       FOR UPDATE`;
  if (!row) {
    const errors = new FieldErrorCollector();
    errors.add(["reserved_draft_order_id"], "No reservation with this id in the shop.");
    errors.throwIfAny();
  }
  if (row.kind !== "RESERVATION") {
    throw new ConflictError("The reservation has already been used by a checkout.", { code: "reservation_already_used" });
  }
  if (row.status !== DRAFT_STATUS.reserved || !row.live) {
    throw new ConflictError("The reservation has expired.", { code: "reservation_expired" });
  }
  return { id: row.id };
}

/** Prescription PDFs of a draft: write-once files in prescription storage with their checksums. */
export const draftPrescriptionKey = (draftPrescriptionId: string) => `drafts/${draftPrescriptionId}.pdf`;

async function storeDraftPrescriptions(tx: Tx, draftOrderId: string, prescriptions: Map<string, ValidatedPdf> | undefined): Promise<void> {
  for (const [externalRef, validated] of prescriptions ?? []) {
    const id = randomUUID();
    const stored = await prescriptionStorage().putImmutable(draftPrescriptionKey(id), validated.pdf);
    await tx.draftPrescription.create({ data: { id, draftOrderId, externalRef, fileKey: stored.key, sha256: stored.sha256 } });
  }
}
