import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { reloadConfig } from "@/server/config";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
let receiver: Receiver;
const as = (user: PortalSessionUser) => createCaller({ user });

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  reloadConfig();
  t = await createTenant();
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyGroupId: t.group.id });
  receiver = await startReceiver();
});
afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  reloadConfig();
  await receiver.close();
});

describe("portal webhook subscriptions (API Access)", () => {
  it("registers with a secret shown once, lists without it, and deletes, through the same rules as the API", async () => {
    const created = await as(pharmacist).webhookSubscriptions.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/portal` });
    expect(created.webhookSecret).toMatch(/^whsec_/);
    const row = await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: created.uid } });
    expect(openSecret(row.secretEncrypted)).toBe(created.webhookSecret);
    const again = await as(pharmacist).webhookSubscriptions.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/portal` });
    expect(again.uid).toBe(created.uid);
    expect(again.webhookSecret).not.toBe(created.webhookSecret);

    const listed = await as(pharmacist).webhookSubscriptions.list({});
    expect(listed).toEqual([expect.objectContaining({ uid: created.uid, pharmacyUid: t.pharmacy.id })]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");

    expect(await trpcCode(as(pharmacist).webhookSubscriptions.register({ notificationType: "pharmacy_order_updated", target: "ftp://x" }))).toBe("BAD_REQUEST");
    // A group pharmacist must pick the pharmacy to register for; one outside the group is not found.
    expect(await trpcCode(as(groupPharmacist).webhookSubscriptions.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/g` }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).webhookSubscriptions.list({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect((await as(groupPharmacist).webhookSubscriptions.list({})).map((s) => s.uid)).toEqual([created.uid]);

    const other = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.loosePharmacy.id });
    expect(await trpcCode(as(other).webhookSubscriptions.delete({ subscriptionUid: created.uid }))).toBe("NOT_FOUND");
    expect(await as(pharmacist).webhookSubscriptions.delete({ subscriptionUid: created.uid })).toEqual({ deleted: true });
    expect(await as(pharmacist).webhookSubscriptions.list({})).toEqual([]);
  });

  it("sends unsigned test deliveries from the portal, even when a subscription matches", async () => {
    await as(pharmacist).webhookSubscriptions.register({ notificationType: "pharmacy_sku_stock_updated", target: `${receiver.url}/test` });
    const result = await as(pharmacist).webhookSubscriptions.sendTest({ notificationType: "pharmacy_sku_stock_updated", target: `${receiver.url}/test` });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, signed: false });
    const got = receiver.received.at(-1)!;
    expect(got.headers["x-webhook-test"]).toBe("true");
    expect(got.headers["x-webhook-signature"]).toBeUndefined();
    expect(got.json).toMatchObject({ event_type: "pharmacy_sku_stock_updated", payload_version: "1" });
  });
});
