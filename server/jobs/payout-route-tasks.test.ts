import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { cancelLockedPharmacyOrder } from "@/server/domain/pharmacy-orders/cancel";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { lockPharmacyOrder } from "@/server/domain/pharmacy-orders/lock";
import { attemptTask } from "@/server/domain/tasks/attempt";
import { TASK_HANDLERS } from "@/server/jobs/task-handlers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { startMollieStandIn, type MollieStandIn } from "@/tests/mollie-stand-in";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import { useEnv } from "@/tests/wait";
import { createPayoutRoute, molliePaymentIdOf, retryPayoutRoute } from "@/server/domain/payouts/create-route";
import { getPaymentConnectionSettings, removePaymentConnection, savePaymentConnection, setPharmacyMollieOrganization, testPaymentConnection } from "@/server/domain/payouts/payment-connection";

// The stand-in listens on 127.0.0.1, which the guarded client reaches only with private targets allowed.
useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

const API_KEY = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM";
const ORG_ID = "org_12345678";
const SYSTEM = { type: "SYSTEM" } as const;

let t: Tenant;
let other: Tenant;
let mollie: MollieStandIn;
const admin = SYSTEM;
let counter = 0;

beforeAll(async () => {
  mollie = await startMollieStandIn({ apiKey: API_KEY });
  t = await createTenant();
  other = await createTenant();
  await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
});
afterAll(() => mollie.close());

beforeEach(async () => {
  mollie.requests.length = 0;
  mollie.routes.length = 0;
  await savePaymentConnection(t.organisation.id, admin, { apiEndpoint: mollie.endpoint, apiKey: API_KEY });
  await setPharmacyMollieOrganization(t.organisation.id, admin, t.pharmacy.id, ORG_ID);
});

/** A completed order of one aspirin paid 1000 (rest 450 at the pharmacy's price, markup 550), paid with Mollie payment `paymentId`. */
async function completedOrder(paymentId: string | null = `tr_Pay${++counter}`) {
  if (paymentId) mollie.addPayment(paymentId);
  const externalId = `mollie-${++counter}`;
  const body = routedOrderBody(t, externalId, t.pharmacy.id, [item("var-aspirin", { external_id: `${externalId}-i1`, total_paid: eur(1000) })], {
    ...(paymentId ? { additional_details: { mollie_payment_id: paymentId } } : {}),
  });
  const [po] = (await createTestOrder(t, body)).pharmacyOrders;
  await completePharmacyOrder(t.pharmacy.id, po.id, [], SYSTEM);
  const payouts = await t.db.payout.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { componentType: "asc" } });
  return { po, paymentId, payouts, rest: payouts.find((p) => p.componentType === "item_rest")! };
}

const payout = (id: string) => database().then((db) => db.payout.findUniqueOrThrow({ where: { id } }));
const routeTasks = (payoutId: string) =>
  database().then((db) => db.backgroundTask.findMany({ where: { name: "payout.create_route", payload: { path: ["payoutId"], equals: payoutId } } }));

describe("completion records the intent; the task creates the route", () => {
  it("without a connected provider, payouts are routed with no provider route, as before, and no task is queued", async () => {
    await removePaymentConnection(t.organisation.id, admin);
    const { payouts } = await completedOrder();
    expect(payouts.map((p) => [p.status, p.providerRouting, p.providerRouteId])).toEqual([
      ["ROUTED", null, null],
      ["ROUTED", null, null],
    ]);
    for (const p of payouts) expect(await routeTasks(p.id)).toHaveLength(0);
    expect(mollie.requests).toHaveLength(0);
  });

  it("with a connection, each routed row is pending with one task, and no request is made inside complete_order", async () => {
    const { payouts } = await completedOrder();
    expect(payouts.map((p) => [p.status, p.providerRouting, p.providerRouteId])).toEqual([
      ["ROUTED", "PENDING", null],
      ["ROUTED", "PENDING", null],
    ]);
    for (const p of payouts) expect(await routeTasks(p.id)).toHaveLength(1);
    expect(mollie.requests).toHaveLength(0);
  });

  it("the task posts the route as Mollie documents it and stores the route id as provider_route_id", async () => {
    const { rest, paymentId, po } = await completedOrder();
    const [task] = await routeTasks(rest.id);
    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });

    const [request] = mollie.routePosts();
    expect(request.path).toBe(`/v2/payments/${paymentId}/routes`);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers["idempotency-key"]).toBe(rest.id);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({
      amount: { value: "4.50", currency: "EUR" },
      description: `Payout item_rest of pharmacy order ${po.name}`,
      destination: { type: "organization", organizationId: ORG_ID },
    });
    const row = await payout(rest.id);
    expect(row).toMatchObject({ status: "ROUTED", providerRouting: "ROUTED", providerRouteId: mollie.routes[0].id, providerError: null, providerLeaseUntil: null });
    expect(row.providerRouteId).toMatch(/^crt_/);
  });
});

describe("failures", () => {
  /** Records the client's waits instead of waiting, so no test depends on the clock. */
  function recordingWait() {
    const waits: number[] = [];
    return { waits, wait: async (ms: number) => void waits.push(ms) };
  }

  it("a 429 is sent again after its Retry-After, with the same idempotency key, within the attempt", async () => {
    const { rest } = await completedOrder();
    const { waits, wait } = recordingWait();
    mollie.misbehave({ status: 429, retryAfter: "2" });
    expect(await createPayoutRoute(rest.id, { last: false }, wait)).toBe("routed");
    expect(waits).toEqual([2000]);
    const posts = mollie.routePosts();
    expect(posts).toHaveLength(2);
    expect(posts.map((p) => p.headers["idempotency-key"])).toEqual([rest.id, rest.id]);
    expect(mollie.routes).toHaveLength(1);
    expect(await payout(rest.id)).toMatchObject({ providerRouting: "ROUTED", providerError: null, providerAttempts: 1 });
  });

  it("a 429 that persists past the retries, or asks for a longer wait, is the task's: the row stays pending and the next attempt routes", async () => {
    const { rest } = await completedOrder();
    const { waits, wait } = recordingWait();
    mollie.misbehave(429, 429, 429);
    await expect(createPayoutRoute(rest.id, { last: false }, wait)).rejects.toThrow(/HTTP 429: You have exceeded the rate limit/);
    expect(waits).toEqual([1000, 1000]);
    expect(await payout(rest.id)).toMatchObject({ providerRouting: "PENDING", providerError: expect.stringContaining("429"), providerLeaseUntil: null });

    mollie.misbehave({ status: 429, retryAfter: "60" });
    await expect(createPayoutRoute(rest.id, { last: false }, wait)).rejects.toThrow(/HTTP 429/);
    expect(waits).toEqual([1000, 1000]);
    expect(await createPayoutRoute(rest.id, { last: false }, wait)).toBe("routed");
    expect(await payout(rest.id)).toMatchObject({ providerRouting: "ROUTED", providerError: null, providerAttempts: 3 });
  });

  it("a 5xx on the task's last attempt fails the row; an admin's Retry queues it again and it is routed", async () => {
    const { rest } = await completedOrder();
    mollie.misbehave(503);
    await expect(createPayoutRoute(rest.id, { last: true })).rejects.toThrow(/HTTP 503/);
    expect(await payout(rest.id)).toMatchObject({ providerRouting: "FAILED", providerError: expect.stringContaining("503") });

    await retryPayoutRoute(t.organisation.id, admin, rest.id);
    expect(await payout(rest.id)).toMatchObject({ providerRouting: "PENDING", providerError: null });
    expect(await routeTasks(rest.id)).toHaveLength(2);
    const audit = await t.db.auditEvent.findFirst({ where: { entityType: "payout", entityId: rest.id, action: "retried" } });
    expect(audit).not.toBeNull();
    expect(await createPayoutRoute(rest.id)).toBe("routed");
  });

  it("Mollie's refusal (4xx) fails the row at once with Mollie's words, without retrying", async () => {
    const { rest } = await completedOrder();
    await t.db.order.updateMany({ where: { pharmacyOrders: { some: { id: rest.pharmacyOrderId } } }, data: { additionalDetails: { mollie_payment_id: "tr_Unknown" } } });
    expect(await createPayoutRoute(rest.id)).toBe("failed");
    expect(await payout(rest.id)).toMatchObject({ providerRouting: "FAILED", providerRouteId: null, providerError: "Mollie answered HTTP 404: No payment exists with token tr_Unknown." });
  });

  it("missing data fails the row without a request: no organization id, no payment id, no connection", async () => {
    const noPayment = await completedOrder(null);
    expect(await createPayoutRoute(noPayment.rest.id)).toBe("failed");
    expect((await payout(noPayment.rest.id)).providerError).toMatch(/no Mollie payment id/);

    const noOrg = await completedOrder();
    await setPharmacyMollieOrganization(t.organisation.id, admin, t.pharmacy.id, null);
    expect(await createPayoutRoute(noOrg.rest.id)).toBe("failed");
    expect((await payout(noOrg.rest.id)).providerError).toBe("The receiving pharmacy has no Mollie organization id.");

    await setPharmacyMollieOrganization(t.organisation.id, admin, t.pharmacy.id, ORG_ID);
    const noConnection = await completedOrder();
    await removePaymentConnection(t.organisation.id, admin);
    expect(await createPayoutRoute(noConnection.rest.id)).toBe("failed");
    expect((await payout(noConnection.rest.id)).providerError).toBe("No payment provider is connected.");
    expect(mollie.requests).toHaveLength(0);
  });

  it("a Retry is refused for a row that did not fail, and another organisation's payout is not found", async () => {
    const { rest } = await completedOrder();
    await expect(retryPayoutRoute(t.organisation.id, admin, rest.id)).rejects.toMatchObject({ code: "payout_not_failed" });
    await expect(retryPayoutRoute(other.organisation.id, admin, rest.id)).rejects.toThrow("Payout not found");
  });
});

describe("nothing is routed twice", () => {
  it("after a lost answer the next attempt sends the same Idempotency-Key and gets the first route back", async () => {
    const { rest } = await completedOrder();
    mollie.misbehave("drop");
    await expect(createPayoutRoute(rest.id)).rejects.toThrow(/Could not reach Mollie|No answer/);
    expect(mollie.routes).toHaveLength(1);
    expect(await createPayoutRoute(rest.id)).toBe("routed");

    const posts = mollie.routePosts();
    expect(posts).toHaveLength(2);
    expect(posts.map((p) => p.headers["idempotency-key"])).toEqual([rest.id, rest.id]);
    expect(mollie.routes).toHaveLength(1);
    expect((await payout(rest.id)).providerRouteId).toBe(mollie.routes[0].id);
  });

  it("two runners on one payout make one request and one route", async () => {
    const { rest } = await completedOrder();
    const outcomes = await Promise.allSettled([createPayoutRoute(rest.id), createPayoutRoute(rest.id)]);
    // One routes it; the other found it held (thrown: its task retries later) or already routed.
    const described = outcomes.map((o) => (o.status === "fulfilled" ? o.value : String(o.reason)));
    expect(described.filter((d) => d === "routed"), described.join(" | ")).toHaveLength(1);
    expect(mollie.routePosts()).toHaveLength(1);
    expect(mollie.routes).toHaveLength(1);
    expect(await createPayoutRoute(rest.id)).toBe("not_pending");
    expect(mollie.routePosts()).toHaveLength(1);
  });

  it("a payout whose order is cancelled before its task runs is not sent; the cancellation still flags the routed row", async () => {
    const { rest, po } = await completedOrder();
    const db = await database();
    await db.$transaction(async (tx) => cancelLockedPharmacyOrder(tx, await lockPharmacyOrder(tx, t.pharmacy.id, po.id), SYSTEM));
    expect(await createPayoutRoute(rest.id)).toBe("skipped");
    expect(await payout(rest.id)).toMatchObject({
      status: "ROUTED",
      providerRouting: "SKIPPED",
      providerRouteId: null,
      reviewReason: "Pharmacy order cancelled after completion",
    });
    expect(mollie.requests).toHaveLength(0);
  });
});

describe("the connection", () => {
  it("stores the API key sealed and shows only a hint; omitting the key keeps it", async () => {
    const stored = await t.db.paymentProviderConnection.findUniqueOrThrow({ where: { organisationId: t.organisation.id } });
    expect(stored.sealedApiKey).not.toContain(API_KEY);
    expect(stored.apiKeyHint).toBe(`test_…${API_KEY.slice(-4)}`);
    await savePaymentConnection(t.organisation.id, admin, { apiEndpoint: mollie.endpoint, apiKey: null });
    expect((await getPaymentConnectionSettings(t.organisation.id)).connection?.apiKeyHint).toBe(stored.apiKeyHint);
    expect(await testPaymentConnection(t.organisation.id)).toEqual({ ok: true, message: 'Connected to Mollie profile "Stand-in pharmacy platform" (pfl_StandIn01, test mode).' });
  });

  it("refuses a malformed key or organization id, and a first save without a key", async () => {
    await expect(savePaymentConnection(t.organisation.id, admin, { apiEndpoint: mollie.endpoint, apiKey: "sk_live_nope" })).rejects.toMatchObject({ fields: { apiKey: [expect.stringContaining("live_ or test_")] } });
    await expect(savePaymentConnection(other.organisation.id, admin, { apiEndpoint: mollie.endpoint })).rejects.toMatchObject({ fields: { apiKey: ["Enter the API key."] } });
    await expect(setPharmacyMollieOrganization(t.organisation.id, admin, t.pharmacy.id, "acct_1")).rejects.toMatchObject({ fields: { mollieOrganizationId: [expect.any(String)] } });
    await expect(setPharmacyMollieOrganization(other.organisation.id, admin, t.pharmacy.id, ORG_ID)).rejects.toThrow("Pharmacy not found");
  });

  it("Test connection reports Mollie's refusal of a wrong key", async () => {
    await savePaymentConnection(t.organisation.id, admin, { apiEndpoint: mollie.endpoint, apiKey: "test_WrongWrongWrongWrongWrong1" });
    expect(await testPaymentConnection(t.organisation.id)).toEqual({ ok: false, message: "Mollie answered HTTP 401: Missing authentication, or failed to authenticate" });
    expect(await testPaymentConnection(other.organisation.id)).toEqual({ ok: false, message: "No payment provider is connected." });
  });
});

describe("which payment", () => {
  it("is order intake's mollie_payment_id, else a checkout's Mollie transaction id", () => {
    expect(molliePaymentIdOf({ mollie_payment_id: "tr_A1" })).toBe("tr_A1");
    expect(molliePaymentIdOf({ checkout: { transaction: { transaction_id: "tr_B2" } } })).toBe("tr_B2");
    expect(molliePaymentIdOf({ checkout: { transaction: { transaction_id: "pi_stripe" } } })).toBeNull();
    expect(molliePaymentIdOf(null)).toBeNull();
  });
});
