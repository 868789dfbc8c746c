import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { changePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/change-status";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, fulfillmentAt, item, offerSku, orderBody } from "@/tests/orders";
import { createDelivery, createPortalUser, createSubscription, droppedAttempts } from "@/tests/webhook-logs";

let t: Tenant;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
let loosePharmacist: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTenant();
  const organisationId = t.organisation.id;
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyGroupId: t.group.id });
  loosePharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.loosePharmacy.id });
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  await t.db.pharmacySku.update({ where: { id: t.groupPharmacySku.id }, data: { stock: 1000 } });
  const { shopVariationId } = await offerSku(t, { shopVariationId: `home-${t.shop.id}`, price: 499 });
  const order = (pharmacyId: string, n: number) =>
    createTestOrder(t, orderBody(t, [], { fulfillments: Array.from({ length: n }, (_, i) => fulfillmentAt(`f-${i}`, pharmacyId, [item(shopVariationId!)])) }));
  // Pharmacy A: three orders waiting, one of them put on hold; pharmacy B: one waiting.
  const a = await order(t.pharmacy.id, 3);
  await order(t.groupPharmacy.id, 1);
  await changePharmacyOrderStatus(t.pharmacy.id, a.pharmacyOrders[0]!.id, { status: "on-hold", comment: "Waiting for the patient to call back." }, { type: "USER", userId: pharmacist.id });

  const subA = await createSubscription(t.db, { organisationId, pharmacyId: t.pharmacy.id });
  const subB = await createSubscription(t.db, { organisationId, pharmacyId: t.groupPharmacy.id });
  await createDelivery(t.db, subA, { state: "FAILED", createdAt: new Date(Date.now() - DAY), attempts: droppedAttempts() });
  // Older than the home page's window, and not failed: not counted.
  await createDelivery(t.db, subA, { state: "FAILED", createdAt: new Date(Date.now() - 30 * DAY), attempts: droppedAttempts() });
  await createDelivery(t.db, subA, { state: "SUCCEEDED", createdAt: new Date(), attempts: [{ responseStatus: 200 }] });
  await createDelivery(t.db, subB, { state: "FAILED", createdAt: new Date(), attempts: droppedAttempts() });
});

describe("pharmacy.home.summary", () => {
  it("counts the pharmacist's orders waiting and on hold, and failed deliveries of the last days", async () => {
    expect(await as(pharmacist).pharmacy.home.summary()).toEqual({
      waitingForPharmacy: 2,
      onHold: 1,
      newAnswers: { count: 0, orders: [] },
      failedDeliveries: { count: 1, since: expect.any(Number), days: 7 },
    });
  });

  it("sums a group pharmacist's pharmacies, or one of them when asked", async () => {
    expect(await as(groupPharmacist).pharmacy.home.summary()).toMatchObject({ waitingForPharmacy: 3, onHold: 1, failedDeliveries: { count: 2 } });
    expect(await as(groupPharmacist).pharmacy.home.summary({ pharmacyUid: t.groupPharmacy.id })).toMatchObject({
      waitingForPharmacy: 1,
      onHold: 0,
      failedDeliveries: { count: 1 },
    });
  });

  it("shows nothing of other pharmacies, and another pharmacy's uid is NOT_FOUND", async () => {
    expect(await as(loosePharmacist).pharmacy.home.summary()).toMatchObject({ waitingForPharmacy: 0, onHold: 0, failedDeliveries: { count: 0 } });
    expect(await trpcCode(as(pharmacist).pharmacy.home.summary({ pharmacyUid: t.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.home.summary({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(null).pharmacy.home.summary())).toBe("UNAUTHORIZED");
  });
});
