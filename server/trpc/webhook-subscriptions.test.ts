import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { reloadConfig } from "@/server/config";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { UNSTORABLE_TEXT_MESSAGE as UNSTORABLE } from "@/server/wire/json-input";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";
import { trpcCode } from "@/tests/trpc";
import { BLOCKED_TARGET_MESSAGE, EMBEDDED_IPV4_TARGETS, withPrivateTargetsRefused } from "@/tests/ssrf";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { startReceiver, type Receiver } from "@/tests/webhook-receiver";
import { createPortalUser, createSubscription } from "@/tests/webhook-logs";

let t: Tenant;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
let receiver: Receiver;
const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });

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
    const created = await as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/portal` });
    expect(created.webhookSecret).toMatch(/^whsec_/);
    const row = await t.db.webhookSubscription.findUniqueOrThrow({ where: { id: created.uid } });
    expect(openSecret(row.secretEncrypted)).toBe(created.webhookSecret);
    const again = await as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/portal` });
    expect(again.uid).toBe(created.uid);
    expect(again.webhookSecret).not.toBe(created.webhookSecret);

    const listed = await as(pharmacist).pharmacy.webhooks.list({});
    expect(listed).toEqual([expect.objectContaining({ uid: created.uid, pharmacyUid: t.pharmacy.id })]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");

    expect(await trpcCode(as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target: "ftp://x" }))).toBe("BAD_REQUEST");
    // One rule with the API: no line breaks or control characters in a target.
    expect(await trpcCode(as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/a\r\nb` }))).toBe("BAD_REQUEST");
    // A group pharmacist must pick the pharmacy to register for; one outside the group is not found.
    expect(await trpcCode(as(groupPharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target: `${receiver.url}/g` }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.webhooks.list({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect((await as(groupPharmacist).pharmacy.webhooks.list({})).map((s) => s.uid)).toEqual([created.uid]);

    const other = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.loosePharmacy.id });
    expect(await trpcCode(as(other).pharmacy.webhooks.delete({ subscriptionUid: created.uid }))).toBe("NOT_FOUND");
    expect(await as(pharmacist).pharmacy.webhooks.delete({ subscriptionUid: created.uid })).toEqual({ deleted: true });
    expect(await as(pharmacist).pharmacy.webhooks.list({})).toEqual([]);
  });

  it("flags a target registered over plain http in both portals, and refuses a new one without WEBHOOK_ALLOW_PRIVATE_TARGETS", async () => {
    const plain = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, target: "http://93.184.215.14/before-https" });
    const tls = await createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, target: "https://93.184.215.14/tls" });
    const orgPlain = await createSubscription(t.db, { organisationId: t.organisation.id, notificationType: "order_updated", target: "http://93.184.215.14/org" });
    const flags = (list: { uid: string; plainHttp: boolean }[]) => Object.fromEntries(list.filter((s) => [plain.id, tls.id, orgPlain.id].includes(s.uid)).map((s) => [s.uid, s.plainHttp]));
    expect(flags(await as(pharmacist).pharmacy.webhooks.list({}))).toEqual({ [plain.id]: true, [tls.id]: false });
    const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    expect(flags(await as(admin).admin.webhooks.list({}))).toEqual({ [orgPlain.id]: true });
    await withPrivateTargetsRefused(async () => {
      expect(await trpcCode(as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target: "http://93.184.215.14/new" }))).toBe("BAD_REQUEST");
    });
    for (const s of [plain, tls, orgPlain]) await t.db.webhookSubscription.update({ where: { id: s.id }, data: { deletedAt: new Date() } });
  });

  it("cannot choose the organisation-only events: the order and prescription events are the admin tool's", async () => {
    for (const notificationType of ["order_created", "order_updated", "prescription_created", "prescription_updated"] as const) {
      const refused = (await as(pharmacist).pharmacy.webhooks.register({ notificationType, target: `${receiver.url}/${notificationType}` }).catch((e: unknown) => e)) as {
        code: string;
        cause: unknown;
      };
      expect(refused.code, notificationType).toBe("BAD_REQUEST");
      expect(Object.keys((refused.cause as { fields: object }).fields)).toEqual(["notification_type"]);
    }
    expect(await t.db.webhookSubscription.count({ where: { scope: "PHARMACY", notificationType: { startsWith: "order_" } } })).toBe(0);
  });

  it("refuses IPv6 forms that embed a loopback, private or metadata IPv4 address, for subscriptions and test sends", async () => {
    // Subscriptions registered while private targets were allowed: their test sends are refused now.
    const earlier = await Promise.all(EMBEDDED_IPV4_TARGETS.map((target) => createSubscription(t.db, { organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, target })));
    await withPrivateTargetsRefused(async () => {
      for (const [i, target] of EMBEDDED_IPV4_TARGETS.entries()) {
        const refused = (await as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_order_updated", target }).catch((e: unknown) => e)) as {
          code?: string;
          cause?: { fields?: unknown };
        };
        expect([refused.code, refused.cause?.fields], target).toEqual(["BAD_REQUEST", { target: [BLOCKED_TARGET_MESSAGE] }]);
        expect(await trpcCode(as(pharmacist).pharmacy.webhooks.sendTest({ subscriptionUid: earlier[i].id })), target).toBe("BAD_REQUEST");
      }
    });
    expect(await t.db.webhookSubscription.count({ where: { target: { in: EMBEDDED_IPV4_TARGETS } } })).toBe(earlier.length);
    await t.db.webhookSubscription.deleteMany({ where: { id: { in: earlier.map((s) => s.id) } } });
  });

  it("sends unsigned test deliveries from the portal, even when a subscription matches", async () => {
    const registered = await as(pharmacist).pharmacy.webhooks.register({ notificationType: "pharmacy_sku_stock_updated", target: `${receiver.url}/test` });
    const result = await as(pharmacist).pharmacy.webhooks.sendTest({ subscriptionUid: registered.uid });
    expect(result).toMatchObject({ delivered: true, statusCode: 200, signed: false });
    const got = receiver.received.at(-1)!;
    expect(got.headers["x-webhook-test"]).toBe("true");
    expect(got.headers["x-webhook-signature"]).toBeUndefined();
    expect(got.json).toMatchObject({ event_type: "pharmacy_sku_stock_updated", payload_version: "1" });
  });
});

describe("bad input over HTTP", () => {
  it("refuses NUL and lone surrogates anywhere in a procedure's input with 400 and the field named, writing nothing", async () => {
    const before = await t.db.webhookSubscription.count();
    const post = (input: string) =>
      handleTrpcRequest(
        new Request("http://localhost:3000/api/trpc/pharmacy.webhooks.register", { method: "POST", headers: { "content-type": "application/json" }, body: input }),
        async () => pharmacist,
      );
    for (const [input, fields] of [
      ['{"notificationType": "pharmacy_order_updated", "target": "https://example.com/\\u0000"}', { target: [UNSTORABLE] }],
      ['{"notificationType": "pharmacy_order_updated", "target": "https://example.com/", "headerValue": "\\ud800"}', { headerValue: [UNSTORABLE] }],
      ['{"notificationType": "pharmacy_order_updated", "target": "https://example.com/", "x\\u0000": 1}', { non_field_errors: [UNSTORABLE] }],
    ] as const) {
      const r = await post(input);
      expect(r.status, input).toBe(400);
      expect(((await r.json()) as { error: { data: { fieldErrors: unknown } } }).error.data.fieldErrors).toEqual(fields);
    }
    const query = await handleTrpcRequest(
      new Request(`http://localhost:3000/api/trpc/pharmacy.webhooks.list?input=${encodeURIComponent('{"pharmacyUid": "\\u0000"}')}`),
      async () => pharmacist,
    );
    expect(query.status).toBe(400);
    expect(await t.db.webhookSubscription.count()).toBe(before);
  });
});
