/**
 * The admin tool's payment provider (admin.paymentProvider) against the Mollie stand-in: connecting
 * the account (key masked, never returned), Test connection, each pharmacy's organization id,
 * the payouts page's route state and its Retry; another organisation's pharmacy or payout
 * NOT_FOUND, and only admins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayoutRoute } from "@/server/domain/payouts/create-route";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { startMollieStandIn, type MollieStandIn } from "@/tests/mollie-stand-in";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import { trpcCode } from "@/tests/trpc";
import { useEnv } from "@/tests/wait";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

const API_KEY = "test_AdminToolKey0123456789abcdef";
let t: Tenant;
let other: Tenant;
let users: AdminCallers;
let otherAdmin: AdminCallers["admin"];
let mollie: MollieStandIn;

beforeAll(async () => {
  mollie = await startMollieStandIn({ apiKey: API_KEY, payments: ["tr_AdminPay1"] });
  t = await createTenant();
  other = await createTenant();
  users = await adminCallers(t);
  otherAdmin = (await adminCallers(other)).admin;
  await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
});
afterAll(() => mollie.close());

describe("admin.paymentProvider", () => {
  it("connects the account: the key is shown masked, never returned; Test connection asks Mollie", async () => {
    const admin = as(users.admin).admin.paymentProvider;
    expect((await admin.settings()).connection).toBeNull();
    expect(await admin.testConnection()).toEqual({ ok: false, message: "No payment provider is connected." });

    const saved = await admin.save({ apiEndpoint: mollie.endpoint, apiKey: API_KEY });
    expect(saved).toMatchObject({ provider: "mollie", apiEndpoint: mollie.endpoint, apiKeyHint: "test_…cdef" });
    expect(JSON.stringify(await admin.settings())).not.toContain(API_KEY);
    expect(await admin.testConnection()).toMatchObject({ ok: true });
    expect(mollie.requests.at(-1)).toMatchObject({ method: "GET", path: "/v2/profiles/me" });
    expect(mollie.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    const audit = await t.db.auditEvent.findFirst({ where: { organisationId: t.organisation.id, entityType: "setting", action: "created" } });
    expect(audit?.summary).toBe("Payment provider connection set: API key test_…cdef");
    expect(JSON.stringify(audit)).not.toContain(API_KEY);
  });

  it("a malformed key is a field error in the admin's language", async () => {
    const error = await as({ ...users.admin }).admin.paymentProvider.save({ apiEndpoint: mollie.endpoint, apiKey: "nope" }).catch((e: unknown) => e);
    expect(JSON.stringify(error)).toContain("apiKey");
  });

  it("sets a pharmacy's organization id; another organisation's pharmacy is NOT_FOUND", async () => {
    const admin = as(users.admin).admin.paymentProvider;
    expect(await admin.setPharmacyOrganization({ pharmacyUid: t.pharmacy.id, mollieOrganizationId: "org_AdminTool1" })).toEqual({ mollieOrganizationId: "org_AdminTool1" });
    expect((await admin.settings()).pharmacies.find((p) => p.uid === t.pharmacy.id)?.mollieOrganizationId).toBe("org_AdminTool1");
    expect(await trpcCode(admin.setPharmacyOrganization({ pharmacyUid: other.pharmacy.id, mollieOrganizationId: "org_X1" }))).toBe("NOT_FOUND");
  });

  it("only admins", async () => {
    for (const user of [users.pharmacist, users.doctor]) {
      expect(await trpcCode(as(user).admin.paymentProvider.settings())).toBe("FORBIDDEN");
      expect(await trpcCode(as(user).admin.paymentProvider.retryRoute({ payoutUid: t.pharmacy.id }))).toBe("FORBIDDEN");
    }
    expect(await trpcCode(as(null).admin.paymentProvider.settings())).toBe("UNAUTHORIZED");
  });
});

describe("the payouts page", () => {
  it("shows a row's route state and error to admins (not pharmacists), and retries a failed route", async () => {
    const order = await createTestOrder(
      t,
      routedOrderBody(t, "pay-admin-1", t.pharmacy.id, [item("var-aspirin", { external_id: "pay-admin-1-i1", total_paid: eur(450) })], {
        additional_details: { mollie_payment_id: "tr_AdminPay1" },
      }),
    );
    const po = order.pharmacyOrders[0]!;
    await completePharmacyOrder(t.pharmacy.id, po.id, [], { type: "SYSTEM" });
    const [rest] = await t.db.payout.findMany({ where: { pharmacyOrderId: po.id } });

    mollie.misbehave(500);
    await expect(createPayoutRoute(rest.id, { last: true })).rejects.toThrow(/HTTP 500/);
    const list = async (user: AdminCallers["admin"]) =>
      (user === users.pharmacist ? as(user).pharmacy.payouts : as(user).admin.payouts).list({ search: po.id }).then((r) => r.items);
    expect(await list(users.admin)).toEqual([
      expect.objectContaining({ uid: rest.id, provider_route_id: null, providerRouting: { state: "failed", error: "Mollie answered HTTP 500: Something went wrong on our side." } }),
    ]);
    expect(await list(users.pharmacist)).toEqual([expect.objectContaining({ uid: null, providerRouting: null })]);

    expect(await trpcCode(as(otherAdmin).admin.paymentProvider.retryRoute({ payoutUid: rest.id }))).toBe("NOT_FOUND");
    expect(await as(users.admin).admin.paymentProvider.retryRoute({ payoutUid: rest.id })).toEqual({ retried: true });
    expect(await trpcCode(as(users.admin).admin.paymentProvider.retryRoute({ payoutUid: rest.id }))).toBe("CONFLICT");
    expect(await createPayoutRoute(rest.id)).toBe("routed");
    const [row] = await list(users.admin);
    expect(row).toMatchObject({ providerRouting: { state: "routed", error: null }, provider_route_id: mollie.routes[0].id });
  });
});
