/**
 * The pharmacy portal's counter check (pharmacy.walletPasses.verify): the Management API's verify
 * rule, answering only valid and status. Its answers equal the REST verify's for a valid, a revoked,
 * an unknown and a malformed value; any pharmacist of the organisation may check any of its passes;
 * another organisation's pass is NOT_FOUND; only pharmacists get in.
 */
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { adminCallers, as } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, post } from "@/tests/http";
import { trpcCode } from "@/tests/trpc";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";
import { createPortalUser } from "@/tests/webhook-logs";

const W = "/v1/management/wallet-passes";

let t: Tenant;
let other: Tenant;
let templates: Awaited<ReturnType<typeof createWalletTemplates>>;
let otherTemplates: Awaited<ReturnType<typeof createWalletTemplates>>;
let pharmacist: PortalSessionUser;
let admin: PortalSessionUser;
let doctor: PortalSessionUser;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  templates = await createWalletTemplates(t);
  otherTemplates = await createWalletTemplates(other);
  ({ pharmacist, admin, doctor } = await adminCallers(t));
});

async function issuePass(tenant: Tenant, templateId: string) {
  const { shopCustomerId } = await createCustomer(tenant);
  const r = await post(W, { key: tenant.keys.management, body: { wallet_pass_template_uid: templateId, shop_customer_id: shopCustomerId, shop_identifier: tenant.shop.identifier } });
  expect(r.status, r.text).toBe(201);
  return r.json as { uid: string; barcode_value: string };
}

/** The REST verify's answer and the portal's to the same value: status and body, or the tRPC code. */
async function bothDoors(barcodeValue: unknown, who: PortalSessionUser = pharmacist) {
  const rest = await post(`${W}/verify`, { key: t.keys.management, body: { barcode_value: barcodeValue } });
  const portal = await as(who)
    .pharmacy.walletPasses.verify({ barcodeValue: barcodeValue as string })
    .catch((error: unknown) => (error instanceof TRPCError ? error.code : Promise.reject(error)));
  return { rest: { status: rest.status, json: rest.json }, portal };
}

describe("checking a wallet pass at the counter", () => {
  it("answers a live pass valid and active, as the REST verify, without its identity handles", async () => {
    const pass = await issuePass(t, templates.plain.id);
    const { rest, portal } = await bothDoors(pass.barcode_value);
    expect(rest).toMatchObject({ status: 200, json: { valid: true, status: "active" } });
    expect(portal).toEqual({ valid: rest.json.valid, status: rest.json.status });
  });

  it("answers a revoked pass not valid and revoked, as the REST verify", async () => {
    const pass = await issuePass(t, templates.plain.id);
    expect((await del(`${W}/${pass.uid}`, { key: t.keys.management })).status).toBe(204);
    const { rest, portal } = await bothDoors(pass.barcode_value);
    expect(rest).toMatchObject({ status: 200, json: { valid: false, status: "revoked" } });
    expect(portal).toEqual({ valid: false, status: "revoked" });
  });

  it("answers NOT_FOUND where the REST verify answers 404: an unknown value, another organisation's pass", async () => {
    const theirs = await issuePass(other, otherTemplates.plain.id);
    for (const value of ["rxp_unknown", theirs.barcode_value]) {
      const { rest, portal } = await bothDoors(value);
      expect(rest).toEqual({ status: 404, json: { error: "Resource not found" } });
      expect(portal).toBe("NOT_FOUND");
    }
  });

  it("refuses a malformed value (BAD_REQUEST) where the REST verify answers 400", async () => {
    for (const value of ["", "   ", "x".repeat(201), 42]) {
      const { rest, portal } = await bothDoors(value);
      expect(rest.status, JSON.stringify(value)).toBe(400);
      expect(portal, JSON.stringify(value)).toBe("BAD_REQUEST");
    }
    // The longest value both doors take is the same.
    const longest = await bothDoors("x".repeat(200));
    expect([longest.rest.status, longest.portal]).toEqual([404, "NOT_FOUND"]);
  });

  it("lets any pharmacist of the organisation check any of its passes: another pharmacy's, a group's", async () => {
    const pass = await issuePass(t, templates.plain.id);
    const loose = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.loosePharmacy.id });
    const group = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyGroupId: t.group.id });
    for (const who of [loose, group]) {
      expect(await as(who).pharmacy.walletPasses.verify({ barcodeValue: pass.barcode_value })).toEqual({ valid: true, status: "active" });
    }
    // Another organisation's pharmacist finds nothing.
    const { pharmacist: theirs } = await adminCallers(other);
    expect(await trpcCode(as(theirs).pharmacy.walletPasses.verify({ barcodeValue: pass.barcode_value }))).toBe("NOT_FOUND");
  });

  it("lets only pharmacists in: admins and doctors FORBIDDEN, signed out UNAUTHORIZED", async () => {
    const pass = await issuePass(t, templates.plain.id);
    for (const [who, code] of [
      [admin, "FORBIDDEN"],
      [doctor, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ] as const) {
      expect(await trpcCode(as(who).pharmacy.walletPasses.verify({ barcodeValue: pass.barcode_value }))).toBe(code);
    }
  });
});
