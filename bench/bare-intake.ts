/**
 * The floor of order intake (`--scenario scale`), served by bench/bare-server.ts: no framework, no
 * key check, no rate limit, a `pg` pool and two named prepared statements. It takes the body of
 * `POST /v1/management/orders`, validates it as the service does (the same storable-text check and
 * the same zod schema, so the same 400 bodies), reads what it needs in one statement (shop, an order
 * already under the external id, the SKUs, the customer, the pharmacies' offers), routes each
 * fulfillment as the service does (every SKU with enough stock, lowest price, most stock, lowest
 * uid: the service's own comparator), writes every row intake writes in one statement (one
 * transaction: patient and shop customer when new, order, shop order, audit event, fulfillments,
 * items, pharmacy orders with their items, first history entries and `pharmacy_order_created`
 * outbox events; the tally rows come from the same trigger) and answers 201 with the Management
 * order built by the service's presenter from what it wrote.
 *
 * Only what the bench sends: catalogue items (no prescription paths, no product_reference), no
 * explicit pharmacy, no hold, doctor, shipping methods or pharmacy e-mail; anything else is a 501.
 * The scale scenario counts, table by table, the rows one request writes here and on the service
 * before anything is measured, so this stays a floor of the same work.
 */
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type pg from "pg";
import { createOrderSchema } from "@/server/api/management/order-intake.schemas";
import { presentManagementOrder } from "@/server/api/management/order.presenters";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { newPharmacyOrderName } from "@/server/domain/pharmacy-orders/create-pharmacy-order";
import { byRoutingPreference, type PharmacyOffer } from "@/server/domain/pharmacy-orders/route-fulfillment";
import { pharmacyOrderSearchText } from "@/server/domain/pharmacy-orders/search-text";
import { deliveryTypeOfHints, PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { displayNameOf } from "@/server/domain/patients/shop-customers";
import { toFieldErrors } from "@/server/wire/field-errors";
import { inputTextErrors } from "@/server/wire/json-input";

export const BARE_INTAKE_PATH = "/v1/management/orders";

type Body = ReturnType<typeof createOrderSchema.parse>;
type Sku = { shopSkuId: string; reference: string; skuId: string; displayName: string; pzn: string | null; skip: boolean; prescriptionRequired: boolean };
type Offer = { id: string; skuId: string; pharmacyId: string; price: number; stock: number };
type Lookup = { shopId: string | null; existingOrderId: string | null; skus: Sku[] | null; patient: { id: string; displayName: string } | null; offers: Offer[] | null };

const LOOKUP = `
  WITH shop AS (SELECT "id" FROM "Shop" WHERE "organisationId" = $1 AND "identifier" = $2),
  skus AS (
    SELECT ss."id" AS "shopSkuId", coalesce(ss."shopVariationId", ss."shopSku") AS "reference", s."id" AS "skuId", s."displayName", s."pzn",
           s."skipForPharmacyOrders" AS "skip", p."prescriptionRequired"
      FROM "ShopSku" ss JOIN "Sku" s ON s."id" = ss."skuId" JOIN "Product" p ON p."id" = s."productId"
     WHERE ss."shopId" = (SELECT "id" FROM shop) AND ss."deletedAt" IS NULL AND s."deletedAt" IS NULL AND ss."shopVariationId" = ANY($4::text[]))
  SELECT (SELECT "id" FROM shop) AS "shopId",
         (SELECT "id" FROM "Order" WHERE "organisationId" = $1 AND "externalId" = $3) AS "existingOrderId",
         (SELECT json_agg(skus) FROM skus) AS "skus",
         (SELECT json_build_object('id', pp."id", 'displayName', pp."displayName")
            FROM "ShopCustomer" c JOIN "PatientProfile" pp ON pp."id" = c."patientId"
           WHERE c."shopId" = (SELECT "id" FROM shop) AND c."shopCustomerId" = $5) AS "patient",
         (SELECT json_agg(json_build_object('id', ps."id", 'skuId', ps."skuId", 'pharmacyId', ps."pharmacyId", 'price', ps."price", 'stock', ps."stock"))
            FROM "PharmacySku" ps JOIN "Pharmacy" ph ON ph."id" = ps."pharmacyId"
           WHERE ps."skuId" IN (SELECT "skuId" FROM skus) AND ps."deletedAt" IS NULL AND ph."organisationId" = $1) AS "offers"`;

/** Every row as one JSON array parameter per table, read with the table's own row type. */
const rows = (table: string, columns: string[], at: number, timestamps = "") => {
  const list = columns.map((c) => `"${c}"`).join(", ");
  return `INSERT INTO "${table}" (${list}${timestamps ? `, ${timestamps.split(",").map((c) => `"${c.trim()}"`).join(", ")}` : ""})
    SELECT ${list}${timestamps ? timestamps.split(",").map(() => ", now()").join("") : ""} FROM jsonb_populate_recordset(NULL::"${table}", $${at}::jsonb)`;
};
const WRITE = `
  WITH "patient" AS (${rows("PatientProfile", ["id", "organisationId", "displayName", "firstName", "lastName", "email"], 1, "updatedAt")}),
  "customer" AS (${rows("ShopCustomer", ["id", "shopId", "shopCustomerId", "patientId", "email"], 2)}),
  "audit" AS (${rows("AuditEvent", ["id", "organisationId", "entityType", "entityId", "action", "summary", "details", "actorType", "actorApiKeyId"], 3)}),
  "order" AS (${rows("Order", ["id", "organisationId", "externalId", "name", "status", "patientId", "customerEmail", "deliveryAddress", "invoiceAddress", "shippingCostAmount", "shippingCostCurrency", "priority", "onHold", "referralScanUid", "additionalDetails"], 4, "updatedAt")} RETURNING "createdAt"),
  "shopOrder" AS (${rows("ShopOrder", ["id", "orderId", "shopId", "externalId", "name"], 5)}),
  "fulfillment" AS (${rows("Fulfillment", ["id", "orderId", "externalId"], 6, "updatedAt")}),
  "item" AS (${rows("OrderItem", ["id", "orderId", "fulfillmentId", "externalId", "skuId", "shopSkuId", "quantity", "totalPaidAmount", "totalPaidCurrency", "fulfillmentMethod"], 7)}),
  "pharmacyOrder" AS (${rows("PharmacyOrder", ["id", "name", "organisationId", "orderId", "fulfillmentId", "activeFulfillmentId", "routing", "pharmacyId", "status", "deliveryType", "prepaid", "shippingCostsAmount", "shippingCostsCurrency", "searchText"], 8, "updatedAt")}),
  "pharmacyOrderItem" AS (${rows("PharmacyOrderItem", ["id", "pharmacyOrderId", "orderItemId", "pharmacySkuId", "amount", "totalPaidAmount"], 9)}),
  "history" AS (${rows("PharmacyOrderHistory", ["id", "pharmacyOrderId", "toStatus", "actorType", "actorApiKeyId"], 10)}),
  "event" AS (${rows("OutboxEvent", ["id", "eventType", "organisationId", "pharmacyId", "subjectId"], 11)})
  SELECT "createdAt" FROM "order"`;

function send(res: http.ServerResponse, status: number, body: unknown) {
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  res.writeHead(status, { "content-type": "application/json", "content-length": bytes.length });
  res.end(bytes);
}

const unsupported = (body: Body) =>
  body.pharmacy_uid || body.doctor_uid || body.on_hold || body.pharmacy_email || body.shipping_methods?.length ||
  body.fulfillments.some((f) => f.destination_pharmacy_uid || f.location_id || f.prescriptions?.length ||
    f.items.some((i) => i.prescription_uid || i.prescription_reference || i.anamnesis_uid || i.product_reference));

/** POST /v1/management/orders for `organisationId`, acting as the API key `apiKeyId`. */
export async function bareIntake(pool: pg.Pool, organisationId: string, apiKeyId: string, text: string, res: http.ServerResponse): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return send(res, 400, { error: "Invalid JSON body." });
  }
  const unstorable = inputTextErrors(json);
  if (unstorable) return send(res, 400, { error: unstorable });
  const parsed = createOrderSchema.safeParse(json);
  if (!parsed.success) return send(res, 400, { error: toFieldErrors(parsed.error.issues) });
  const body = parsed.data;
  if (unsupported(body)) return send(res, 501, { error: "bare intake: only catalogue items routed automatically" });

  const items = body.fulfillments.flatMap((f) => f.items);
  const [lookup] = (
    await pool.query<Lookup>({
      name: "bare_intake_lookup",
      text: LOOKUP,
      values: [organisationId, body.shop_identifier, body.external_id, [...new Set(items.map((i) => i.sku_reference))], body.customer.id],
    })
  ).rows;
  if (!lookup.shopId) return send(res, 400, { error: { shop_identifier: ["No shop with this identifier in the organisation."] } });
  if (lookup.existingOrderId) return send(res, 409, { code: "order_already_exists", order_uid: lookup.existingOrderId, error: "Order already exists" });
  const skuOf = new Map((lookup.skus ?? []).map((s) => [s.reference, s]));
  const missing = items.filter((i) => !skuOf.has(i.sku_reference));
  if (missing.length > 0 || items.some((i) => skuOf.get(i.sku_reference)!.prescriptionRequired)) {
    return send(res, 501, { error: "bare intake: unknown or prescription-only SKU" });
  }

  const orderId = randomUUID();
  const name = body.name ?? body.external_id;
  const names = { firstName: body.delivery_address.first_name, lastName: body.delivery_address.last_name };
  const patient = lookup.patient ?? { id: randomUUID(), displayName: displayNameOf(names) };
  const email = body.customer.email ?? null;
  const actor = { actorType: "API_KEY", actorApiKeyId: apiKeyId };
  const written = body.fulfillments.map((f) => {
    const fulfillmentId = randomUUID();
    const lines = f.items.map((i) => ({ id: randomUUID(), item: i, sku: skuOf.get(i.sku_reference)! }));
    const toPharmacy = lines.filter((l) => !l.sku.skip);
    const needs = new Map<string, number>();
    for (const l of toPharmacy) needs.set(l.sku.skuId, (needs.get(l.sku.skuId) ?? 0) + l.item.quantity);
    const byPharmacy = new Map<string, PharmacyOffer & { enough: number }>();
    for (const o of lookup.offers ?? []) {
      if (!needs.has(o.skuId)) continue;
      const entry = byPharmacy.get(o.pharmacyId) ?? { pharmacyId: o.pharmacyId, pharmacySkuBySku: new Map(), carriesAll: false, canServe: false, price: 0, stock: 0, enough: 0 };
      entry.pharmacySkuBySku.set(o.skuId, o.id);
      if (o.stock >= needs.get(o.skuId)!) entry.enough += 1;
      entry.price += o.price * needs.get(o.skuId)!;
      entry.stock += o.stock;
      byPharmacy.set(o.pharmacyId, entry);
    }
    const routed = toPharmacy.length === 0 ? null : [...byPharmacy.values()].filter((e) => e.enough === needs.size).sort(byRoutingPreference)[0];
    if (toPharmacy.length > 0 && !routed) return null;
    return { f, fulfillmentId, lines, toPharmacy, routed, pharmacyOrder: routed ? { id: randomUUID(), name: newPharmacyOrderName() } : null };
  });
  if (written.some((w) => w === null)) return send(res, 422, { error: "No pharmacy can fulfil a fulfillment." });
  const fulfillments = written as NonNullable<(typeof written)[number]>[];
  const routedAny = fulfillments.some((w) => w.routed);
  const status = routedAny ? ORDER_STATUS.waitingForPharmacy : ORDER_STATUS.started;
  // The shipping cost goes with the first pharmacy order, as in the service.
  const shippingOn = fulfillments.find((w) => w.routed)?.fulfillmentId;
  const shopOrderId = randomUUID();

  const values = [
    lookup.patient ? [] : [{ id: patient.id, organisationId, displayName: patient.displayName, ...names, email }],
    lookup.patient ? [] : [{ id: randomUUID(), shopId: lookup.shopId, shopCustomerId: body.customer.id, patientId: patient.id, email }],
    [{
      id: randomUUID(), organisationId, entityType: "order", entityId: orderId, action: "created",
      summary: `Order ${name} created (${body.fulfillments.length} fulfillment${body.fulfillments.length === 1 ? "" : "s"})`,
      details: { externalId: body.external_id, status: ORDER_STATUS.started, shopId: lookup.shopId }, ...actor,
    }],
    [{
      id: orderId, organisationId, externalId: body.external_id, name, status, patientId: patient.id, customerEmail: email,
      deliveryAddress: body.delivery_address, invoiceAddress: body.invoice_address ?? body.delivery_address,
      shippingCostAmount: body.shipping_cost?.amount ?? null, shippingCostCurrency: body.shipping_cost?.currency ?? null,
      priority: body.priority ?? 0, onHold: false, referralScanUid: body.referral_scan_uid ?? null, additionalDetails: body.additional_details ?? null,
    }],
    [{ id: shopOrderId, orderId, shopId: lookup.shopId, externalId: body.external_id, name }],
    fulfillments.map((w) => ({ id: w.fulfillmentId, orderId, externalId: w.f.external_id })),
    fulfillments.flatMap((w) => w.lines.map((l) => ({
      id: l.id, orderId, fulfillmentId: w.fulfillmentId, externalId: l.item.external_id, skuId: l.sku.skuId, shopSkuId: l.sku.shopSkuId,
      quantity: l.item.quantity, totalPaidAmount: l.item.total_paid.amount, totalPaidCurrency: l.item.total_paid.currency,
      fulfillmentMethod: l.item.fulfillment_method ?? null,
    }))),
    fulfillments.flatMap((w) => {
      if (!w.pharmacyOrder) return [];
      const shipping = w.fulfillmentId === shippingOn ? body.shipping_cost : undefined;
      return [{
        id: w.pharmacyOrder.id, name: w.pharmacyOrder.name, organisationId, orderId, fulfillmentId: w.fulfillmentId, activeFulfillmentId: w.fulfillmentId,
        routing: "AUTOMATIC", pharmacyId: w.routed!.pharmacyId, status: PHARMACY_ORDER_STATUS.waitingForPharmacy,
        deliveryType: deliveryTypeOfHints(w.toPharmacy.map((l) => l.item.fulfillment_method)), prepaid: 0,
        shippingCostsAmount: shipping?.amount ?? null, shippingCostsCurrency: shipping?.currency ?? null,
        searchText: pharmacyOrderSearchText({ shopOrderName: name, name: w.pharmacyOrder.name, patientName: patient.displayName, orderId, id: w.pharmacyOrder.id }),
      }];
    }),
    fulfillments.flatMap((w) => w.toPharmacy.map((l) => ({
      id: randomUUID(), pharmacyOrderId: w.pharmacyOrder!.id, orderItemId: l.id, pharmacySkuId: w.routed!.pharmacySkuBySku.get(l.sku.skuId) ?? null,
      amount: l.item.quantity, totalPaidAmount: l.item.total_paid.amount,
    }))),
    fulfillments.flatMap((w) => (w.pharmacyOrder ? [{ id: randomUUID(), pharmacyOrderId: w.pharmacyOrder.id, toStatus: PHARMACY_ORDER_STATUS.waitingForPharmacy, ...actor }] : [])),
    fulfillments.flatMap((w) => (w.pharmacyOrder
      ? [{ id: randomUUID(), eventType: "pharmacy_order_created", organisationId, pharmacyId: w.routed!.pharmacyId, subjectId: w.pharmacyOrder.id }]
      : [])),
  ].map((v) => JSON.stringify(v));

  let createdAt: Date;
  try {
    [{ createdAt }] = (await pool.query<{ createdAt: Date }>({ name: "bare_intake_write", text: WRITE, values })).rows;
  } catch (error) {
    if ((error as { code?: string }).code !== "23505") throw error;
    const { rows: [winner] } = await pool.query<{ id: string }>({
      name: "bare_intake_winner",
      text: `SELECT "id" FROM "Order" WHERE "organisationId" = $1 AND "externalId" = $2`,
      values: [organisationId, body.external_id],
    });
    return send(res, 409, { code: "order_already_exists", order_uid: winner?.id, error: "Order already exists" });
  }

  const order: OrderWithGraph = {
    id: orderId,
    name,
    externalId: body.external_id,
    status,
    onHold: false,
    customerEmail: email,
    createdAt,
    updatedAt: createdAt,
    shopOrder: { id: shopOrderId, externalId: body.external_id, shop: { id: lookup.shopId, identifier: body.shop_identifier } },
    items: fulfillments.flatMap((w) => w.lines.map((l) => ({
      id: l.id, skuId: l.sku.skuId, quantity: l.item.quantity, prescriptionId: null, sku: { displayName: l.sku.displayName, pzn: l.sku.pzn },
    }))),
    fulfillments: fulfillments.map((w) => ({
      id: w.fulfillmentId, status: "OPEN", externalId: w.f.external_id,
      items: w.lines.map((l) => ({ id: l.id, status: "OPEN", quantity: l.item.quantity })),
      pharmacyOrder: w.pharmacyOrder ? { status: PHARMACY_ORDER_STATUS.waitingForPharmacy, updatedAt: createdAt } : null,
    })),
    prescriptions: [],
  };
  // The bench's key has no prescription:read: the answer leaves prescription_uid out, as the service's does.
  send(res, 201, presentManagementOrder(order, false));
}
