import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { ValidationError } from "@/server/domain/errors";
import { toFieldErrors } from "@/server/wire/field-errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { trpcCode } from "@/tests/trpc";
import { BLOCKED_TARGET_MESSAGE, EMBEDDED_IPV4_TARGETS } from "@/tests/ssrf";
import { useEnv } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";
import { createCaller } from "./router";

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctorUser: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
const tag = () => randomBytes(4).toString("hex");
const ADDRESS = { line1: "Hauptstr. 1", postal_code: "10115", city: "Berlin", country: "de" };

async function fieldErrors(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("BAD_REQUEST");
    const cause = (error as TRPCError).cause;
    if (cause instanceof ValidationError) return cause.fields;
    if (cause instanceof ZodError) return toFieldErrors(cause.issues);
    throw error;
  }
  throw new Error("expected the call to fail");
}

// A fake pharmacy system for "Test connection": answers per path as told.
let server: Server;
let baseUrl: string;
const requests: { url: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? "", authorization: req.headers.authorization });
    if (req.url?.startsWith("/ok/")) return void res.writeHead(404).end();
    if (req.url?.startsWith("/status/")) return void res.writeHead(200, { "content-type": "application/json" }).end('{"status":"open"}');
    if (req.url?.startsWith("/hang/")) return; // never answers
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTenant();
  other = await createTenant();
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. P" } });
  doctorUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctor.id });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("who may call", () => {
  const calls = (c: ReturnType<typeof as>) => [
    () => c.admin.pharmacies.list(),
    () => c.admin.pharmacies.get({ pharmacyUid: t.pharmacy.id }),
    () => c.admin.pharmacies.create({ displayName: "X" }),
    () => c.admin.pharmacies.change({ pharmacyUid: t.pharmacy.id, displayName: "X" }),
    () => c.admin.pharmacies.testConnection({ pharmacyUid: t.pharmacy.id }),
    () => c.admin.pharmacyGroups.list(),
    () => c.admin.pharmacyGroups.create({ displayName: "X" }),
    () => c.admin.pharmacyGroups.rename({ groupUid: t.group.id, displayName: "X" }),
    () => c.admin.shops.list(),
    () => c.admin.shops.create({ identifier: `x-${tag()}`, displayName: "X" }),
    () => c.admin.shops.rename({ shopUid: t.shop.id, displayName: "X" }),
    () => c.admin.shops.createShippingMethod({ shopUid: t.shop.id, externalId: "x", displayName: "X" }),
    () => c.admin.shops.renameShippingMethod({ shippingMethodUid: t.shop.id, displayName: "X" }),
  ];

  it("refuses nobody signed in, pharmacists and doctors, writing nothing", async () => {
    const counts = async () => [await t.db.pharmacy.count({ where: { organisationId: t.organisation.id } }), await t.db.pharmacyGroup.count({ where: { organisationId: t.organisation.id } }), await t.db.shop.count({ where: { organisationId: t.organisation.id } }), await t.db.auditEvent.count({ where: { organisationId: t.organisation.id } })];
    const before = await counts();
    for (const call of calls(as(null))) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(as(pharmacist))) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(as(doctorUser))) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await counts()).toEqual(before);
    expect((await t.db.pharmacy.findUniqueOrThrow({ where: { id: t.pharmacy.id } })).displayName).toBe("Apotheke A");
  });

  it("answers NOT_FOUND for another organisation's pharmacy, group, shop and shipping method, changing nothing", async () => {
    const method = await other.db.shopShippingMethod.create({ data: { shopId: other.shop.id, externalId: "their-std", displayName: "Theirs" } });
    expect(await trpcCode(as(admin).admin.pharmacies.get({ pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.pharmacies.change({ pharmacyUid: other.pharmacy.id, displayName: "Mine now" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.pharmacies.testConnection({ pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.pharmacies.create({ displayName: "Into their group", groupUid: other.group.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.pharmacies.change({ pharmacyUid: t.loosePharmacy.id, displayName: "Apotheke C", groupUid: other.group.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.pharmacyGroups.rename({ groupUid: other.group.id, displayName: "Mine now" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.shops.rename({ shopUid: other.shop.id, displayName: "Mine now" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.shops.createShippingMethod({ shopUid: other.shop.id, externalId: "x", displayName: "X" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.shops.renameShippingMethod({ shippingMethodUid: method.id, displayName: "Mine now" }))).toBe("NOT_FOUND");
    expect((await other.db.pharmacy.findUniqueOrThrow({ where: { id: other.pharmacy.id } })).displayName).toBe("Apotheke A");
    expect((await other.db.pharmacyGroup.findUniqueOrThrow({ where: { id: other.group.id } })).displayName).toBe("Group");
    expect((await other.db.shop.findUniqueOrThrow({ where: { id: other.shop.id } })).displayName).toBe("Shop");
    expect((await other.db.shopShippingMethod.findUniqueOrThrow({ where: { id: method.id } })).displayName).toBe("Theirs");
    expect(await other.db.shopShippingMethod.count({ where: { shopId: other.shop.id } })).toBe(1);
    expect(await t.db.pharmacy.count({ where: { displayName: "Into their group" } })).toBe(0);
    expect((await t.db.pharmacy.findUniqueOrThrow({ where: { id: t.loosePharmacy.id } })).groupId).toBeNull();
    const listed = (await as(admin).admin.pharmacies.list()).map((p) => p.uid);
    expect(listed).toEqual(expect.arrayContaining([t.pharmacy.id, t.groupPharmacy.id, t.loosePharmacy.id]));
    expect(listed).not.toContain(other.pharmacy.id);
    expect((await as(admin).admin.shops.list()).map((s) => s.uid)).not.toContain(other.shop.id);
    expect((await as(admin).admin.pharmacyGroups.list()).map((g) => g.uid)).toEqual([t.group.id]);
  });
});

describe("adminPharmacies", () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

  it("creates a pharmacy with address, group, location id and connector; shows the connector without header values; audits", async () => {
    const created = await as(admin).admin.pharmacies.create({
      displayName: " Apotheke D ",
      email: "d@example.com",
      address: { ...ADDRESS, line2: "" },
      groupUid: t.group.id,
      locationId: "loc-d",
      systemConnector: { url: `${baseUrl}/ok`, headers: { Authorization: "Bearer s3cret" }, timeoutMs: 3000 },
    });
    expect(created).toMatchObject({
      displayName: "Apotheke D",
      email: "d@example.com",
      address: { line1: "Hauptstr. 1", postal_code: "10115", city: "Berlin", country: "DE" },
      locationId: "loc-d",
      group: { uid: t.group.id, name: "Group" },
      connector: { type: "http", url: `${baseUrl}/ok`, headerNames: ["Authorization"], timeoutMs: 3000 },
    });
    expect(created.address).not.toHaveProperty("line2");
    expect(JSON.stringify(await as(admin).admin.pharmacies.get({ pharmacyUid: created.uid }))).not.toContain("s3cret");
    const row = await t.db.pharmacy.findUniqueOrThrow({ where: { id: created.uid } });
    // The header value is sealed at rest like every other secret (issue 36): the row never holds it.
    expect(row).toMatchObject({ organisationId: t.organisation.id, groupId: t.group.id, systemConnector: { type: "http", sealed_headers: { Authorization: expect.stringMatching(/^v1\./) } } });
    expect(JSON.stringify(row.systemConnector)).not.toContain("s3cret");
    expect(row.systemConnector).not.toHaveProperty("headers");
    const audit = await t.db.auditEvent.findMany({ where: { entityId: created.uid } });
    expect(audit).toMatchObject([{ entityType: "pharmacy", action: "created", actorUserId: admin.id }]);

    // "Test connection" really asks the system with the stored headers; 404 for the test order is success.
    requests.length = 0;
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: created.uid })).toMatchObject({ ok: true });
    expect(requests).toEqual([{ url: "/ok/orders/connection-test?name=connection-test", authorization: "Bearer s3cret" }]);

    // An edit without headers keeps them; the audit names what changed, never the secret.
    const changed = await as(admin).admin.pharmacies.change({
      pharmacyUid: created.uid,
      displayName: "Apotheke D",
      email: "d@example.com",
      address: ADDRESS,
      groupUid: null,
      locationId: "loc-d",
      systemConnector: { url: `${baseUrl}/status`, timeoutMs: 3000 },
    });
    expect(changed).toMatchObject({ group: null, connector: { url: `${baseUrl}/status`, headerNames: ["Authorization"] } });
    const after = await t.db.auditEvent.findMany({ where: { entityId: created.uid }, orderBy: { createdAt: "asc" } });
    expect(after.at(-1)).toMatchObject({ action: "changed", summary: 'Pharmacy "Apotheke D" changed: group, system connector' });
    expect(JSON.stringify(after)).not.toContain("s3cret");
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: created.uid })).toMatchObject({ ok: true, message: expect.stringContaining('"open"') });
  });

  it("shows the connection error: an error status, no answer in time, no connector", async () => {
    const p = await as(admin).admin.pharmacies.create({ displayName: `E ${tag()}`, systemConnector: { url: `${baseUrl}/broken` } });
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: p.uid })).toEqual({ ok: false, message: "The pharmacy system answered HTTP 500." });
    await as(admin).admin.pharmacies.change({ pharmacyUid: p.uid, displayName: p.displayName, systemConnector: { url: `${baseUrl}/hang`, timeoutMs: 300 } });
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: p.uid })).toEqual({ ok: false, message: "No answer within 0.3 s." });
    await as(admin).admin.pharmacies.change({ pharmacyUid: p.uid, displayName: p.displayName, systemConnector: null });
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: p.uid })).toMatchObject({ ok: false });
  });

  it("refuses bad input with field errors: address, e-mail, connector URL, a location id another pharmacy has", async () => {
    const before = await t.db.pharmacy.count({ where: { organisationId: t.organisation.id } });
    const bad = await fieldErrors(as(admin).admin.pharmacies.create({ displayName: "Bad", email: "nope", address: { line1: "", postal_code: "1", city: "B", country: "XX" } }));
    expect(bad).toMatchObject({ email: expect.any(Array), address: { line1: expect.any(Array), country: ["Enter a 2-letter ISO country code, e.g. DE."] } });
    expect(await fieldErrors(as(admin).admin.pharmacies.create({ displayName: "Bad", systemConnector: { url: "ftp://x" } }))).toEqual({
      systemConnector: { url: ["Enter a valid http(s) URL without user info."] },
    });
    await as(admin).admin.pharmacies.change({ pharmacyUid: t.pharmacy.id, displayName: "Apotheke A", groupUid: t.group.id, locationId: "loc-a" });
    expect(await fieldErrors(as(admin).admin.pharmacies.create({ displayName: "Dup", locationId: "loc-a" }))).toEqual({
      locationId: ["Another pharmacy of the organisation has this location id."],
    });
    expect(await fieldErrors(as(admin).admin.pharmacies.change({ pharmacyUid: t.groupPharmacy.id, displayName: "Apotheke B", groupUid: t.group.id, locationId: "loc-a" }))).toHaveProperty(
      "locationId",
    );
    // Another organisation may use the same location id.
    const otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
    expect(await as(otherAdmin).admin.pharmacies.create({ displayName: "Theirs", locationId: "loc-a" })).toMatchObject({ locationId: "loc-a" });
    expect(await t.db.pharmacy.count({ where: { organisationId: t.organisation.id } })).toBe(before);
    expect((await t.db.pharmacy.findUniqueOrThrow({ where: { id: t.groupPharmacy.id } })).locationId).toBeNull();
  });

  it("two pharmacies created at once with one location id: one wins, the other is a field error", async () => {
    const location = `race-${tag()}`;
    const results = await Promise.allSettled([1, 2].map((i) => as(admin).admin.pharmacies.create({ displayName: `Race ${i}`, locationId: location })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((loser.reason as TRPCError).code).toBe("BAD_REQUEST");
    expect(await t.db.pharmacy.count({ where: { organisationId: t.organisation.id, locationId: location } })).toBe(1);
  });
});

describe("the connector's SSRF guard", () => {
  it("refuses a loopback connector URL at save and at test without WEBHOOK_ALLOW_PRIVATE_TARGETS", async () => {
    expect(await fieldErrors(as(admin).admin.pharmacies.create({ displayName: "Local", systemConnector: { url: `${baseUrl}/ok` } }))).toMatchObject({
      systemConnector: { url: [expect.stringContaining("loopback")] },
    });
    await t.db.pharmacy.update({ where: { id: t.loosePharmacy.id }, data: { systemConnector: { type: "http", url: `${baseUrl}/ok` } } });
    requests.length = 0;
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: t.loosePharmacy.id })).toMatchObject({ ok: false, message: expect.stringContaining("loopback") });
    expect(requests).toEqual([]);
  });

  it("refuses IPv6 forms that embed a loopback, private or metadata IPv4 address at save and at test", async () => {
    const port = new URL(baseUrl).port;
    for (const target of EMBEDDED_IPV4_TARGETS) {
      const url = target.replace("]/", `]:${port}/`);
      expect(await fieldErrors(as(admin).admin.pharmacies.create({ displayName: "Embedded", systemConnector: { url } })), url).toEqual({
        systemConnector: { url: [BLOCKED_TARGET_MESSAGE] },
      });
      await t.db.pharmacy.update({ where: { id: t.loosePharmacy.id }, data: { systemConnector: { type: "http", url } } });
      expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: t.loosePharmacy.id }), url).toEqual({ ok: false, message: BLOCKED_TARGET_MESSAGE });
    }
    expect(requests).toEqual([]);
  });

  it("tests through the guarded client: a saved name that now resolves to loopback is not connected to", async () => {
    // As after a DNS change: `localhost` resolves to 127.0.0.1 (the setting was valid when saved).
    await t.db.pharmacy.update({ where: { id: t.loosePharmacy.id }, data: { systemConnector: { type: "http", url: baseUrl.replace("127.0.0.1", "localhost") } } });
    requests.length = 0;
    expect(await as(admin).admin.pharmacies.testConnection({ pharmacyUid: t.loosePharmacy.id })).toEqual({ ok: false, message: BLOCKED_TARGET_MESSAGE });
    expect(requests).toEqual([]);
  });
});

describe("adminPharmacyGroups", () => {
  it("creates and renames groups (audited); pharmacies join a group by their edit", async () => {
    const group = await as(admin).admin.pharmacyGroups.create({ displayName: "North" });
    await as(admin).admin.pharmacyGroups.rename({ groupUid: group.uid, displayName: "North-East" });
    await as(admin).admin.pharmacies.change({ pharmacyUid: t.loosePharmacy.id, displayName: "Apotheke C", groupUid: group.uid });
    const listed = (await as(admin).admin.pharmacyGroups.list()).find((g) => g.uid === group.uid);
    expect(listed).toMatchObject({ displayName: "North-East", pharmacies: [{ uid: t.loosePharmacy.id, name: "Apotheke C" }] });
    expect((await t.db.auditEvent.findMany({ where: { entityId: group.uid }, orderBy: { createdAt: "asc" } })).map((e) => e.summary)).toEqual([
      'Pharmacy group "North" created',
      'Pharmacy group "North" renamed to "North-East"',
    ]);
    expect(await fieldErrors(as(admin).admin.pharmacyGroups.create({ displayName: "  " }))).toHaveProperty("displayName");
  });
});

describe("adminShops", () => {
  it("creates shops and shipping methods, renames both (audited); identifiers and external ids clash as field errors", async () => {
    const identifier = `shop-new-${tag()}`;
    const shop = await as(admin).admin.shops.create({ identifier, displayName: "New shop" });
    expect(await fieldErrors(as(admin).admin.shops.create({ identifier, displayName: "Again" }))).toEqual({ identifier: ["A shop with this identifier already exists."] });
    // Identifiers are unique across organisations too (the Public API addresses shops by them).
    const otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
    expect(await fieldErrors(as(otherAdmin).admin.shops.create({ identifier, displayName: "Theirs" }))).toHaveProperty("identifier");
    expect(await fieldErrors(as(admin).admin.shops.create({ identifier: "has space", displayName: "X" }))).toHaveProperty("identifier");
    await as(admin).admin.shops.rename({ shopUid: shop.uid, displayName: "Renamed shop" });

    const method = await as(admin).admin.shops.createShippingMethod({ shopUid: shop.uid, externalId: "express", displayName: "Express" });
    expect(await fieldErrors(as(admin).admin.shops.createShippingMethod({ shopUid: shop.uid, externalId: "express", displayName: "Again" }))).toEqual({
      externalId: ["This shop already has a shipping method with this external id."],
    });
    // The same external id in another shop is fine.
    await as(admin).admin.shops.createShippingMethod({ shopUid: t.shop.id, externalId: "express", displayName: "Express" });
    await as(admin).admin.shops.renameShippingMethod({ shippingMethodUid: method.uid, displayName: "Express (24 h)" });

    const listed = (await as(admin).admin.shops.list()).find((s) => s.uid === shop.uid);
    expect(listed).toMatchObject({ identifier, displayName: "Renamed shop", shippingMethods: [{ uid: method.uid, externalId: "express", displayName: "Express (24 h)" }] });
    expect((await t.db.auditEvent.findMany({ where: { entityId: shop.uid }, orderBy: { createdAt: "asc" } })).map((e) => e.action)).toEqual([
      "created",
      "renamed",
      "shipping_method_created",
      "shipping_method_renamed",
    ]);
    expect(await t.db.shop.count({ where: { identifier } })).toBe(1);
  });
});
