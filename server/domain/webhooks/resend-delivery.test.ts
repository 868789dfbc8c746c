import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createDelivery, createPortalUser, createSubscription, droppedAttempts } from "@/tests/webhook-logs";
import { claimDelivery } from "./deliver-attempt";
import { resendWebhookDelivery } from "./resend-delivery";

let tenant: Tenant;
let A: string;
let userId: string;
let sub: Awaited<ReturnType<typeof createSubscription>>;

beforeAll(async () => {
  tenant = await createTenant();
  A = tenant.pharmacy.id;
  userId = (await createPortalUser(tenant.db, { role: "PHARMACIST", organisationId: tenant.organisation.id, pharmacyId: A })).id;
  sub = await createSubscription(tenant.db, { organisationId: tenant.organisation.id, pharmacyId: A });
});

/** What the delivery engine was told, with the delivery's state at that moment (after the commit). */
let announced: { ids: string[]; state: string | undefined }[] = [];
const announce = async (ids: string[]) => {
  const row = await tenant.db.webhookDelivery.findUnique({ where: { id: ids[0] }, select: { state: true } });
  announced.push({ ids, state: row?.state });
};
beforeEach(() => {
  announced = [];
});

const dropped = () => createDelivery(tenant.db, sub, { state: "FAILED", attempts: droppedAttempts() });
const resend = (deliveryId: string, pharmacyIds = [A]) =>
  resendWebhookDelivery({ deliveryId, pharmacyIds, actor: { type: "USER", userId }, announce });

describe("resendWebhookDelivery", () => {
  it("gives a dropped delivery a fresh round of five attempts, due now, and records who asked", async () => {
    const delivery = await dropped();
    const before = Date.now();
    expect(await resend(delivery.id)).toEqual({ deliveryId: delivery.id, attemptCount: 5, maxAttempts: 10 });
    const row = await tenant.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id }, include: { resends: true, attempts: true } });
    expect(row.state).toBe("PENDING");
    expect(row.attemptCount).toBe(5);
    expect(row.maxAttempts).toBe(10);
    expect(Math.abs(row.nextAttemptAt!.getTime() - before)).toBeLessThan(5_000);
    expect(row.attempts).toHaveLength(5);
    expect(row.resends).toEqual([expect.objectContaining({ userId, apiKeyId: null })]);
    expect(announced).toEqual([{ ids: [delivery.id], state: "PENDING" }]); // after the commit
    // The engine's next attempt continues the numbering.
    expect(await claimDelivery(delivery.id)).toEqual(expect.objectContaining({ deliveryId: delivery.id, attemptNumber: 6 }));
  });

  it("can re-send again after the next round is dropped too; an API key is recorded as such", async () => {
    const delivery = await dropped();
    await resend(delivery.id);
    await tenant.db.webhookDelivery.update({ where: { id: delivery.id }, data: { state: "FAILED", attemptCount: 10, nextAttemptAt: null } });
    const apiKey = await tenant.db.apiKey.findFirstOrThrow({ where: { pharmacyId: A } });
    const result = await resendWebhookDelivery({ deliveryId: delivery.id, pharmacyIds: [A], actor: { type: "API_KEY", apiKeyId: apiKey.id }, announce });
    expect(result.maxAttempts).toBe(15);
    const resends = await tenant.db.webhookDeliveryResend.findMany({ where: { deliveryId: delivery.id }, orderBy: { createdAt: "asc" } });
    expect(resends.map((r) => [r.userId, r.apiKeyId])).toEqual([
      [userId, null],
      [null, apiKey.id],
    ]);
  });

  it("re-sends even when the delivery engine cannot be told (the row is due and picked up later)", async () => {
    const delivery = await dropped();
    const failing = async () => {
      throw new Error("Inngest unreachable");
    };
    const result = await resendWebhookDelivery({ deliveryId: delivery.id, pharmacyIds: [A], actor: { type: "USER", userId }, announce: failing });
    expect(result).toEqual({ deliveryId: delivery.id, attemptCount: 5, maxAttempts: 10 });
    expect((await tenant.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe("PENDING");
  });

  it("refuses deliveries that are not permanently failed", async () => {
    const succeeded = await createDelivery(tenant.db, sub, { state: "SUCCEEDED", attempts: [{ responseStatus: 200 }] });
    const pending = await createDelivery(tenant.db, sub, { state: "PENDING", nextAttemptAt: new Date() });
    await expect(resend(succeeded.id)).rejects.toThrow(ConflictError);
    await expect(resend(succeeded.id)).rejects.toThrow(/succeeded/);
    await expect(resend(pending.id)).rejects.toThrow(/still being attempted/);
    expect(await tenant.db.webhookDeliveryResend.count({ where: { deliveryId: { in: [succeeded.id, pending.id] } } })).toBe(0);
    expect(announced).toEqual([]);
    expect((await tenant.db.webhookDelivery.findUniqueOrThrow({ where: { id: succeeded.id } })).state).toBe("SUCCEEDED");
  });

  it("refuses a delivery whose subscription was deleted", async () => {
    const gone = await createSubscription(tenant.db, { organisationId: tenant.organisation.id, pharmacyId: A });
    const delivery = await createDelivery(tenant.db, gone, { state: "FAILED", attempts: droppedAttempts() });
    await tenant.db.webhookSubscription.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    await expect(resend(delivery.id)).rejects.toThrow(/subscription of this delivery was deleted/);
    expect((await tenant.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).state).toBe("FAILED");
  });

  it("does not find deliveries outside the pharmacies or of organisation-level subscriptions", async () => {
    const delivery = await dropped();
    await expect(resend(delivery.id, [tenant.groupPharmacy.id])).rejects.toBeInstanceOf(NotFoundError);
    await expect(resend(delivery.id, [])).rejects.toBeInstanceOf(NotFoundError);
    await expect(resend("00000000-0000-0000-0000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
    const orgSub = await createSubscription(tenant.db, { organisationId: tenant.organisation.id, pharmacyId: null });
    const orgDelivery = await createDelivery(tenant.db, orgSub, { pharmacyId: A, state: "FAILED", attempts: droppedAttempts() });
    await expect(resend(orgDelivery.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("re-sends exactly once when ten re-sends of one delivery race", async () => {
    const delivery = await dropped();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => resend(delivery.id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ConflictError);
    expect(await tenant.db.webhookDeliveryResend.count({ where: { deliveryId: delivery.id } })).toBe(1);
    expect((await tenant.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).maxAttempts).toBe(10);
  });
});
