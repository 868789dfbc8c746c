/**
 * A pharmacy's assortment by an administrator's hand: adding SKUs (one or many, all or none; a SKU
 * already carried is "Pharmacy SKU already exists", also when two adds race), removing one, the
 * SKUs still outside it, and what it means for routing (the admin tool's doors: admin.assortments).
 */
import { ROUTE_WAITING_TASK } from "@/server/domain/pharmacy-orders/waiting-fulfillments";
import { routeWaitingFulfillments } from "@/server/domain/orders/route-waiting";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createSku } from "@/server/domain/catalogue/skus";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { as } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { onPostgres, untilWaitingForLock } from "@/tests/locks";
import { item, offerSku, orderBody, placeOrder } from "@/tests/orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { addToAssortment, listSkusOutsideAssortment, lockAssortment, removeFromAssortment } from "./assortments";

let t: Tenant;
let admin: PortalSessionUser;

beforeAll(async () => {
  t = await createTenant();
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
});

const SYSTEM = { type: "SYSTEM" } as const;
const newSku = (name = `SKU ${randomUUID().slice(0, 6)}`, fields: { pzn?: string; digital?: boolean } = {}) =>
  createSku(t.organisation.id, t.product.id, { displayName: name, ...fields }, SYSTEM);
const stockEvents = (subjectId: string) => t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId } });
const refusal = async (work: Promise<unknown>) => work.then(() => expect.fail("expected a refusal"), (error: unknown) => error);
const liveRows = (pharmacyId: string, skuId: string) => t.db.pharmacySku.count({ where: { pharmacyId, skuId, deletedAt: null } });

describe("addToAssortment", () => {
  it("adds a SKU with its external id, price and stock: an INITIAL movement by the admin, one stock event and an audit entry", async () => {
    const sku = await newSku("Ibuprofen 400 mg");
    const [id] = await addToAssortment(t.organisation.id, t.loosePharmacy.id, [{ skuId: sku.id, externalId: "C-IBU", price: 399, stock: 12 }], admin.id);
    expect(await t.db.pharmacySku.findUniqueOrThrow({ where: { id } })).toMatchObject({
      pharmacyId: t.loosePharmacy.id,
      skuId: sku.id,
      externalId: "C-IBU",
      price: 399,
      stock: 12,
      deletedAt: null,
    });
    expect(await t.db.stockMovement.findMany({ where: { pharmacySkuId: id } })).toEqual([
      expect.objectContaining({ delta: 12, stockAfter: 12, reason: "INITIAL", actorType: "USER", actorUserId: admin.id, pharmacyOrderId: null }),
    ]);
    expect(await t.db.outboxEvent.findMany({ where: { subjectId: id } })).toEqual([
      expect.objectContaining({ eventType: "pharmacy_sku_stock_updated", organisationId: t.organisation.id, pharmacyId: t.loosePharmacy.id }),
    ]);
    expect(await t.db.auditEvent.findMany({ where: { entityId: id } })).toEqual([
      expect.objectContaining({
        entityType: "pharmacy_sku",
        action: "added",
        actorUserId: admin.id,
        summary: `"Ibuprofen 400 mg" added to the assortment of Apotheke C: stock 12, price 3.99 EUR`,
      }),
    ]);
  });

  it("adds many at once; a starting stock of 0 records no movement and no event", async () => {
    const [a, b] = [await newSku(), await newSku()];
    const ids = await addToAssortment(
      t.organisation.id,
      t.loosePharmacy.id,
      [
        { skuId: a.id, externalId: "C-A", price: 100, stock: 0 },
        { skuId: b.id, externalId: "C-B", price: 200, stock: 3 },
      ],
      admin.id,
    );
    expect(ids).toHaveLength(2);
    const rows = await t.db.pharmacySku.findMany({ where: { id: { in: ids } }, orderBy: { price: "asc" } });
    expect(rows.map((r) => [r.skuId, r.stock])).toEqual([
      [a.id, 0],
      [b.id, 3],
    ]);
    expect(await t.db.stockMovement.count({ where: { pharmacySkuId: ids[0] } })).toBe(0);
    expect(await stockEvents(ids[0])).toBe(0);
    expect(await stockEvents(ids[1])).toBe(1);
  });

  it("refuses a SKU the pharmacy carries as “Pharmacy SKU already exists”, naming the entry, and adds none of the others", async () => {
    const fresh = await newSku();
    const error = await refusal(
      addToAssortment(
        t.organisation.id,
        t.pharmacy.id,
        [
          { skuId: fresh.id, externalId: "A-new", price: 100, stock: 1 },
          { skuId: t.sku.id, externalId: "A-again", price: 100, stock: 1 },
        ],
        admin.id,
      ),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).message).toBe("Pharmacy SKU already exists");
    expect((error as ConflictError).fields).toEqual({ entries: { 1: { sku_uid: ["Pharmacy SKU already exists"] } } });
    expect(await liveRows(t.pharmacy.id, fresh.id)).toBe(0);
    expect(await liveRows(t.pharmacy.id, t.sku.id)).toBe(1);
  });

  it("refuses SKUs that are not the organisation's live SKUs, the type the pharmacy hides, and a SKU twice: nothing is added", async () => {
    const other = await createTenant();
    const hiding = await createTenant({ hiddenSkuType: "DIGITAL" });
    const gone = await newSku();
    await t.db.sku.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    const fresh = await newSku();
    const entry = (skuId: string) => ({ skuId, externalId: "X", price: 1, stock: 1 });
    const error = await refusal(
      addToAssortment(t.organisation.id, t.loosePharmacy.id, [entry(fresh.id), entry(other.sku.id), entry(gone.id), entry(fresh.id)], admin.id),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({
      entries: { 1: { sku_uid: ["SKU not found."] }, 2: { sku_uid: ["SKU not found."] }, 3: { sku_uid: ["This SKU is already in the list."] } },
    });
    expect(await liveRows(t.loosePharmacy.id, fresh.id)).toBe(0);

    const digital = await createSku(hiding.organisation.id, hiding.product.id, { displayName: "E-voucher 2", digital: true }, SYSTEM);
    const hidden = await refusal(addToAssortment(hiding.organisation.id, hiding.pharmacy.id, [entry(digital.id)], admin.id));
    expect((hidden as ValidationError).fields).toEqual({ entries: { 0: { sku_uid: ["This pharmacy hides digital SKUs."] } } });
  });

  it("another organisation's pharmacy is not found", async () => {
    const other = await createTenant();
    const sku = await newSku();
    expect(await refusal(addToAssortment(t.organisation.id, other.loosePharmacy.id, [{ skuId: sku.id, externalId: "X", price: 1, stock: 1 }], admin.id))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it("two adds of the same SKU at once: one pharmacy SKU, the other add is the conflict", async () => {
    const sku = await newSku();
    const add = () => addToAssortment(t.organisation.id, t.groupPharmacy.id, [{ skuId: sku.id, externalId: "B-R", price: 100, stock: 5 }], admin.id);
    const results = await Promise.allSettled([add(), add()]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
    expect(await liveRows(t.groupPharmacy.id, sku.id)).toBe(1);
    expect(await t.db.stockMovement.count({ where: { pharmacySku: { pharmacyId: t.groupPharmacy.id, skuId: sku.id } } })).toBe(1);
  });

  // PostgreSQL only (transactions at once): both adds wait on the assortment's lock while another
  // transaction holds it, then run one after the other; the second sees the first's row.
  it.skipIf(!onPostgres)("adds racing behind the assortment's lock run one after the other: one row", async () => {
    const sku = await newSku();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.$transaction(
      async (tx) => {
        await lockAssortment(tx, t.groupPharmacy.id);
        locked();
        await released;
      }
    );
    await holding;
    const add = () => addToAssortment(t.organisation.id, t.groupPharmacy.id, [{ skuId: sku.id, externalId: "B-L", price: 100, stock: 5 }], admin.id);
    const racing = Promise.allSettled([add(), add()]);
    await untilWaitingForLock(t.db, 2); // both adds wait for the lock: the race is on
    release();
    await holder;
    const results = await racing;
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await liveRows(t.groupPharmacy.id, sku.id)).toBe(1);
  });
});

describe("removeFromAssortment", () => {
  it("soft-deletes the pharmacy SKU with an audit entry; it leaves the lists, and the SKU can be added again", async () => {
    const sku = await newSku("Removable");
    const [id] = await addToAssortment(t.organisation.id, t.loosePharmacy.id, [{ skuId: sku.id, externalId: "C-R", price: 100, stock: 4 }], admin.id);
    await removeFromAssortment(t.organisation.id, t.loosePharmacy.id, id, admin.id);
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id } })).deletedAt).toBeInstanceOf(Date);
    expect(await t.db.auditEvent.findFirst({ where: { entityId: id, action: "removed" } })).toMatchObject({
      summary: `"Removable" removed from the assortment of Apotheke C (stock 4)`,
    });
    const list = await as(admin).admin.pharmacyStock.list({ pharmacyUid: t.loosePharmacy.id, limit: 100 });
    expect(list.items.map((i) => i.uid)).not.toContain(id);
    expect(await refusal(removeFromAssortment(t.organisation.id, t.loosePharmacy.id, id, admin.id))).toBeInstanceOf(NotFoundError);
    const [again] = await addToAssortment(t.organisation.id, t.loosePharmacy.id, [{ skuId: sku.id, externalId: "C-R2", price: 100, stock: 0 }], admin.id);
    expect(again).not.toBe(id);
  });

  it("another pharmacy's SKU, or one of another organisation, is not found", async () => {
    const other = await createTenant();
    expect(await refusal(removeFromAssortment(t.organisation.id, t.loosePharmacy.id, t.pharmacySku.id, admin.id))).toBeInstanceOf(NotFoundError);
    expect(await refusal(removeFromAssortment(t.organisation.id, other.pharmacy.id, other.pharmacySku.id, admin.id))).toBeInstanceOf(NotFoundError);
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).deletedAt).toBeNull();
  });
});

describe("listSkusOutsideAssortment", () => {
  it("lists the catalogue's live SKUs the pharmacy neither carries nor hides, by name, with a search", async () => {
    const tenant = await createTenant({ hiddenSkuType: "DIGITAL" });
    const extra = await createSku(tenant.organisation.id, tenant.product.id, { displayName: "Aspirin 100 mg", pzn: "44444444" }, SYSTEM);
    const { items, total } = await listSkusOutsideAssortment(tenant.organisation.id, tenant.pharmacy.id, undefined, { page: 0, limit: 10 });
    // Pharmacy A carries Aspirin 500 mg and hides the e-voucher.
    expect(items.map((s) => s.id)).toEqual([extra.id, tenant.rxSku.id]);
    expect(total).toBe(2);
    expect((await listSkusOutsideAssortment(tenant.organisation.id, tenant.pharmacy.id, "4444", { page: 0, limit: 10 })).items.map((s) => s.id)).toEqual([extra.id]);
    expect((await listSkusOutsideAssortment(tenant.organisation.id, tenant.pharmacy.id, "finas", { page: 0, limit: 10 })).items.map((s) => s.id)).toEqual([tenant.rxSku.id]);
    // Pharmacy C carries nothing and hides nothing.
    expect((await listSkusOutsideAssortment(tenant.organisation.id, tenant.loosePharmacy.id, undefined, { page: 0, limit: 10 })).total).toBe(4);
  });
});

describe("admin.assortments", () => {
  it("is for administrators only; a conflict reaches the form under the entry's field", async () => {
    const pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    const input = { pharmacyUid: t.pharmacy.id, entries: [{ skuUid: t.sku.id, externalId: "A-1", price: 450, stock: 1 }] };
    expect(await trpcCode(as(pharmacist).admin.assortments.add(input))).toBe("FORBIDDEN");
    const error = await refusal(as(admin).admin.assortments.add(input));
    expect(error).toMatchObject({ code: "CONFLICT", message: "Pharmacy SKU already exists" });
    expect(await trpcCode(as(admin).admin.assortments.add({ ...input, entries: [] }))).toBe("BAD_REQUEST");
    expect(await trpcCode(as(admin).admin.assortments.add({ ...input, entries: [{ ...input.entries[0], stock: -1 }] }))).toBe("BAD_REQUEST");
  });

  it("routing: a new SKU has no pharmacy (the order waits as pharmacy not found) until an admin adds it with stock to a new pharmacy, which then gets the waiting order and new ones", async () => {
    const sku = await newSku("Routed only here");
    const offer = await offerSku(t, { shopVariationId: `var-${sku.id}`, price: 999, skuId: sku.id });
    const body = () => orderBody(t, [item(offer.shopVariationId!)]);
    const waiting = await placeOrder(t, body());
    expect(waiting.status).toBe(201);
    expect(waiting.json.status).toBe("pharmacy not found");

    const pharmacy = await as(admin).admin.pharmacies.create({ displayName: "Apotheke Neu" });
    await as(admin).admin.assortments.add({ pharmacyUid: pharmacy.uid, entries: [{ skuUid: sku.id, externalId: "N-1", price: 800, stock: 3 }] });
    // The stock that arrived queued the routing of the organisation's waiting fulfillments.
    expect(await t.db.backgroundTask.count({ where: { name: ROUTE_WAITING_TASK, state: "PENDING" } })).toBeGreaterThan(0);
    await routeWaitingFulfillments(t.organisation.id);
    expect(await t.db.pharmacyOrder.findMany({ where: { orderId: waiting.json.uid }, select: { pharmacyId: true } })).toEqual([{ pharmacyId: pharmacy.uid }]);
    const placed = await placeOrder(t, body());
    expect(placed.status).toBe(201);
    const orderId = placed.json.uid as string;
    expect(await t.db.pharmacyOrder.findMany({ where: { orderId }, select: { pharmacyId: true } })).toEqual([{ pharmacyId: pharmacy.uid }]);
  });
});
