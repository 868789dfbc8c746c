/**
 * The admin home's counts on a fresh organisation: each thing that needs attention counted once
 * it exists, only the admin's organisation's, failed deliveries of the last 7 days only, and the
 * low-stock threshold (at or below 5). Authorisation as for every admin procedure.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { createDelivery, createPortalUser, createSubscription } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
let otherAdmin: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
});

describe("admin.home.summary", () => {
  it("refuses signed-out callers, pharmacists and doctors", async () => {
    const pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    const doctorRow = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Home" } });
    const doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctorRow.id });
    expect(await trpcCode(as(null).admin.home.summary())).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(pharmacist).admin.home.summary())).toBe("FORBIDDEN");
    expect(await trpcCode(as(doctor).admin.home.summary())).toBe("FORBIDDEN");
  });

  it("counts open threads, orders waiting for a doctor or without a pharmacy, failed deliveries and pharmacies running out", async () => {
    // Pharmacies running out: every pharmacy SKU well stocked first, then one at the threshold.
    await t.db.pharmacySku.updateMany({ where: { pharmacy: { organisationId: t.organisation.id } }, data: { stock: 1000 } });
    const empty = await as(admin).admin.home.summary();
    expect(empty).toMatchObject({ openThreads: 0, waitingForDoctor: 0, withoutPharmacy: 0, failedDeliveries: { count: 0, days: 7 }, pharmaciesRunningOut: { count: 0, threshold: 5 } });

    await t.db.pharmacySku.update({ where: { id: t.groupPharmacySku.id }, data: { stock: LOW_STOCK_THRESHOLD } });
    await t.db.pharmacySku.update({ where: { id: t.digitalPharmacySku.id }, data: { stock: LOW_STOCK_THRESHOLD + 1 } });
    // A deleted pharmacy SKU does not count.
    await t.db.pharmacySku.create({ data: { pharmacyId: t.loosePharmacy.id, skuId: t.sku.id, externalId: "C-0", price: 1, stock: 0, deletedAt: new Date() } });

    // An open thread (on-hold comment) and one resolved.
    const r = await placeOrder(t, orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])] }));
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    const pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    await as(pharmacist).pharmacy.orders.requestClarification({ uid: po.id, description: "first", expectedStatus: "waiting for pharmacy" });
    const second = await as(pharmacist).pharmacy.orders.requestClarification({ uid: po.id, description: "second", expectedStatus: "on-hold" });
    await as(admin).admin.issues.resolve({ uid: second.threadUid, releaseOrder: false });

    // Waiting for a doctor; on hold (not counted anywhere but on hold).
    await placeWaitingOrder(t, refs, { customerId: "home-rx" });
    await placeOrder(t, orderBody(t, [item(refs.otcReference)], { on_hold: true }));
    // Without a pharmacy: released from hold with more than any pharmacy has.
    const big = await placeOrder(t, orderBody(t, [], { on_hold: true, fulfillments: [{ external_id: "f-big", items: [item(refs.otcReference, { quantity: 5000 })] }] }));
    await as(admin).admin.orders.releaseHold({ uid: big.json.uid });

    // Failed deliveries: one today, one eight days ago, one succeeded, one of another organisation.
    const sub = await createSubscription(t.db, { organisationId: t.organisation.id });
    await createDelivery(t.db, sub, { state: "FAILED" });
    await createDelivery(t.db, sub, { state: "FAILED", createdAt: new Date(Date.now() - 8 * 24 * 3600 * 1000) });
    await createDelivery(t.db, sub, { state: "SUCCEEDED" });
    await createDelivery(other.db, await createSubscription(other.db, { organisationId: other.organisation.id }), { state: "FAILED" });

    const summary = await as(admin).admin.home.summary();
    expect(summary).toMatchObject({
      openThreads: 1,
      waitingForDoctor: 1,
      withoutPharmacy: 1,
      failedDeliveries: { count: 1 },
      pharmaciesRunningOut: { count: 1 },
    });
    // The counts and the lists they link to agree.
    expect((await as(admin).admin.issues.list({ status: "open" })).total).toBe(1);
    expect((await as(admin).admin.orders.list({ status: "waiting for doctor" })).total).toBe(1);
    expect((await as(admin).admin.orders.list({ withoutPharmacy: true })).total).toBe(1);

    expect(await as(otherAdmin).admin.home.summary()).toMatchObject({ openThreads: 0, waitingForDoctor: 0, withoutPharmacy: 0, failedDeliveries: { count: 1 } });
  });
});
