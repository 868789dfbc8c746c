import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, fulfillmentAt, item, orderBody, withShopSkus } from "@/tests/orders";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let order: { orderId: string; pharmacyOrders: { id: string; name: string }[] };
let keyUid: string;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

// Fixed times far in the past, so the rows written by the commands (now) come first.
const T = new Date("2025-01-01T10:00:00.000Z");
const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000);
const unixAt = (minutes: number) => Math.floor(at(minutes).getTime() / 1000);

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Log" } });
  doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctorRow.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });

  const refs = await withShopSkus(t);
  order = await createTestOrder(t, orderBody(t, [], { external_id: `audit-${t.shop.id}`, fulfillments: [fulfillmentAt("f1", t.pharmacy.id, [item(refs.otcReference)])] }));
  keyUid = (await as(admin).admin.apiKeys.create({ family: "MANAGEMENT", displayName: "Audit ERP", permissions: ["order:read"] })).uid;
  await as(admin).admin.apiKeys.revoke({ keyUid });

  // Interleaving: audit events and pharmacy order history rows at chosen times.
  const po = order.pharmacyOrders[0];
  const event = (minutes: number, summary: string) =>
    t.db.auditEvent.create({
      data: { organisationId: t.organisation.id, entityType: "setting", entityId: null, action: "changed", summary, actorType: "SYSTEM", createdAt: at(minutes) },
    });
  const history = (minutes: number, toStatus: string, comment: string | null) =>
    t.db.pharmacyOrderHistory.create({
      data: { pharmacyOrderId: po.id, fromStatus: "waiting for pharmacy", toStatus, comment, actorType: "USER", actorUserId: pharmacist.id, createdAt: at(minutes) },
    });
  await event(1, "Setting one changed");
  await history(2, "on-hold", "Dosage unclear");
  await event(3, "Setting two changed");
  await history(4, "in-progress", null);
  await other.db.auditEvent.create({
    data: { organisationId: other.organisation.id, entityType: "setting", action: "changed", summary: "Foreign setting changed", actorType: "SYSTEM", createdAt: at(2) },
  });
});

const list = (input: Parameters<ReturnType<typeof as>["admin"]["audit"]["list"]>[0], user = admin) => as(user).admin.audit.list(input);

describe("adminAudit: authorisation", () => {
  it("refuses the signed-out, pharmacists and doctors", async () => {
    expect(await trpcCode(as(null).admin.audit.list({}))).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(null).admin.audit.actors())).toBe("UNAUTHORIZED");
    for (const user of [pharmacist, doctor]) {
      expect(await trpcCode(as(user).admin.audit.list({}))).toBe("FORBIDDEN");
      expect(await trpcCode(as(user).admin.audit.actors())).toBe("FORBIDDEN");
    }
  });

  it("never shows another organisation's entries, nor its entities by uid", async () => {
    const all = await list({ limit: 200 });
    expect(all.entries.some((e) => e.summary.includes("Foreign"))).toBe(false);
    // The other organisation sees its own events (its fixture catalogue's and the setting), nothing of ours.
    const own = (await t.db.auditEvent.findMany({ where: { organisationId: other.organisation.id } })).map((e) => e.summary);
    const theirs = (await list({ limit: 200 }, otherAdmin)).entries.map((e) => e.summary);
    expect(theirs).toContain("Foreign setting changed");
    expect(theirs.sort()).toEqual(own.sort());
    expect((await list({ entityUid: order.orderId }, otherAdmin)).entries).toEqual([]);
    expect((await as(otherAdmin).admin.audit.actors()).some((a) => a.uid === admin.id || a.uid === keyUid)).toBe(false);
  });
});

describe("admin.audit.list", () => {
  it("merges audit events and status histories newest first, with who and when", async () => {
    const window = await list({ from: unixAt(0), to: unixAt(10) });
    expect(window.entries.map((e) => [e.source, e.at])).toEqual([
      ["pharmacy_order_history", unixAt(4)],
      ["audit_event", unixAt(3)],
      ["pharmacy_order_history", unixAt(2)],
      ["audit_event", unixAt(1)],
    ]);
    expect(window.entries[2]).toMatchObject({
      kind: "pharmacy_order",
      entityUid: order.pharmacyOrders[0].id,
      orderUid: order.orderId,
      summary: `Pharmacy order ${order.pharmacyOrders[0].name}: waiting for pharmacy → on-hold: “Dosage unclear”`,
      actor: { type: "USER", uid: pharmacist.id, name: pharmacist.name },
    });
    expect(window.entries[1].actor).toEqual({ type: "SYSTEM" });
  });

  it("records order creation (by the system) and key creation and revocation (by the admin)", async () => {
    const keys = await list({ kinds: ["api_key"] });
    expect(keys.entries.map((e) => e.action)).toEqual(["revoked", "created"]);
    expect(keys.entries.every((e) => e.kind === "api_key" && e.entityUid === keyUid)).toBe(true);
    expect(keys.entries[1]).toMatchObject({ summary: 'Management API key "Audit ERP" created (order:read)', actor: { type: "USER", uid: admin.id, name: admin.name } });
    const orders = await list({ kinds: ["order"] });
    expect(orders.entries).toEqual([
      expect.objectContaining({ kind: "order", action: "created", entityUid: order.orderId, orderUid: order.orderId, actor: { type: "SYSTEM" } }),
    ]);
  });

  it("narrows by each filter", async () => {
    const kinds = await list({ kinds: ["pharmacy_order"], limit: 200 });
    expect(kinds.entries.length).toBeGreaterThanOrEqual(3);
    expect(kinds.entries.every((e) => e.kind === "pharmacy_order")).toBe(true);

    const byUser = await list({ actor: { type: "USER", uid: pharmacist.id } });
    expect(byUser.entries.map((e) => e.at)).toEqual([unixAt(4), unixAt(2)]);
    const bySystem = await list({ actor: { type: "SYSTEM" }, limit: 200 });
    expect(bySystem.entries.every((e) => e.actor.type === "SYSTEM")).toBe(true);
    expect(bySystem.entries.some((e) => e.actor.type === "SYSTEM" && e.kind === "order")).toBe(true);

    const dated = await list({ from: unixAt(2), to: unixAt(3) });
    expect(dated.entries.map((e) => e.at)).toEqual([unixAt(3), unixAt(2)]);

    const entity = await list({ entityUid: order.orderId, limit: 200 });
    expect(new Set(entity.entries.map((e) => e.kind))).toEqual(new Set(["order", "pharmacy_order"]));
    expect(entity.entries.every((e) => e.orderUid === order.orderId)).toBe(true);

    expect((await list({ text: "dosage" })).entries.map((e) => e.at)).toEqual([unixAt(2)]);
    expect((await list({ text: "setting two" })).entries.map((e) => e.summary)).toEqual(["Setting two changed"]);
    expect((await list({ text: "100%_" })).entries).toEqual([]);
  });

  it("pages with a stable cursor: every entry once, in order, though new entries arrive meanwhile", async () => {
    const all = (await list({ limit: 200 })).entries.map((e) => e.uid);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list({ limit: 2, cursor });
      seen.push(...page.entries.map((e) => e.uid));
      cursor = page.nextCursor ?? undefined;
      if (pages++ === 0) {
        await t.db.auditEvent.create({
          data: { organisationId: t.organisation.id, entityType: "setting", action: "changed", summary: "Arrived while paging", actorType: "SYSTEM" },
        });
      }
    } while (cursor);
    expect(seen).toEqual(all);
    expect(await trpcCode(list({ cursor: "not-a-cursor" }))).toBe("BAD_REQUEST");
    expect(await trpcCode(list({ from: unixAt(5), to: unixAt(1) }))).toBe("BAD_REQUEST");
  });

  it("offers the organisation's users and API keys as actors", async () => {
    const actors = await as(admin).admin.audit.actors();
    expect(actors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "USER", uid: admin.id, name: admin.name, role: "ADMIN" }),
        expect.objectContaining({ type: "API_KEY", uid: keyUid, name: "Audit ERP", family: "MANAGEMENT", revoked: true }),
      ]),
    );
  });
});

describe("adminAudit: entries as kinds and values (issue 37)", () => {
  it("gives new events their message key and stored values, and older rows (no values) none: their summary shows", async () => {
    const { entries } = await list({ entityUid: order.orderId, limit: 200 });
    const row = await t.db.order.findUniqueOrThrow({ where: { id: order.orderId }, select: { name: true } });
    const created = entries.find((e) => e.source === "audit_event" && e.kind === "order" && e.action === "created");
    expect(created?.words).toEqual({ key: "order.created", values: { name: row.name, fulfillments: 1, onHold: "false" } });
    expect(created?.summary).toBe(`Order ${row.name} created (1 fulfillment)`);
    const old = (await list({ kinds: ["setting"], limit: 200 })).entries.find((e) => e.summary === "Setting one changed");
    expect(old?.words).toBeNull();
  });

  it("gives history entries their statuses and note as values", async () => {
    const { entries } = await list({ kinds: ["pharmacy_order"], entityUid: order.pharmacyOrders[0].id, limit: 200 });
    const onHold = entries.find((e) => e.source === "pharmacy_order_history" && e.words?.values.to === "on-hold");
    expect(onHold?.words).toEqual({
      key: "pharmacy_order.status_changed",
      values: { name: order.pharmacyOrders[0].name, from: "waiting for pharmacy", to: "on-hold", note: "Dosage unclear" },
    });
  });
});
