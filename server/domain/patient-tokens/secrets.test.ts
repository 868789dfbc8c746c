import { beforeAll, describe, expect, it } from "vitest";
import { verifyPatientToken } from "@/server/auth/patient-tokens";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { mintPatientToken } from "@/tests/patient-tokens";
import { createPatientTokenSecret, listPatientTokenSecrets, revokePatientTokenSecret } from "./secrets";

let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
});

const tokenFor = (created: { id: string; secret: string; audience: string }) =>
  mintPatientToken({ kid: created.id, secret: created.secret, audience: created.audience }, { shop_identifier: t.shop.identifier, shop_customer_id: "c-1" });

describe("patient token secrets", () => {
  it("returns the secret once at creation and stores it sealed; the list never shows it", async () => {
    const created = await createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "  Backend  ", audience: "my-shop" });
    expect(created).toMatchObject({ displayName: "Backend", audience: "my-shop", revokedAt: null, lastUsedAt: null, secret: expect.stringMatching(/^ptsec_[\w-]{43}$/) });
    const row = await t.db.patientTokenSecret.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretSealed).not.toContain(created.secret.slice(6));
    expect(openSecret(row.secretSealed)).toBe(created.secret);
    const listed = await listPatientTokenSecrets(t.organisation.id);
    expect(listed[0]).toEqual({ id: created.id, displayName: "Backend", audience: "my-shop", createdAt: expect.any(Date), lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect((await listPatientTokenSecrets(other.organisation.id)).map((s) => s.id)).not.toContain(created.id);
  });

  it("defaults the audience to patient-data and refuses a blank name or audience", async () => {
    expect((await createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "x" })).audience).toBe("patient-data");
    await expect(createPatientTokenSecret({ organisationId: t.organisation.id, displayName: " " })).rejects.toBeInstanceOf(ValidationError);
    await expect(createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "x", audience: "" })).rejects.toBeInstanceOf(ValidationError);
  });

  it("revokes at once: a token that verified is refused on the next request; revoking again changes nothing", async () => {
    const created = await createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "to revoke" });
    const token = await tokenFor(created);
    expect(await verifyPatientToken(token)).toMatchObject({ scope: { secretId: created.id, organisationId: t.organisation.id, shopId: t.shop.id, shopCustomerId: "c-1" } });
    await revokePatientTokenSecret(t.organisation.id, created.id);
    expect(await verifyPatientToken(token)).toEqual({ failure: { code: "invalid_header", description: expect.any(String) } });
    const revokedAt = (await t.db.patientTokenSecret.findUniqueOrThrow({ where: { id: created.id } })).revokedAt;
    await revokePatientTokenSecret(t.organisation.id, created.id);
    expect((await t.db.patientTokenSecret.findUniqueOrThrow({ where: { id: created.id } })).revokedAt).toEqual(revokedAt);
  });

  it("refuses a secret revoked by another process at once, though this process holds it opened", async () => {
    const created = await createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "elsewhere" });
    const token = await tokenFor(created);
    expect(await verifyPatientToken(token)).toHaveProperty("scope");
    // As another process's revocation: the row changes, this process's cache is not told.
    await t.db.patientTokenSecret.update({ where: { id: created.id }, data: { revokedAt: new Date() } });
    expect(await verifyPatientToken(token)).toMatchObject({ failure: { code: "invalid_header" } });
  });

  it("does not revoke another organisation's or an unknown secret (not found)", async () => {
    const created = await createPatientTokenSecret({ organisationId: t.organisation.id, displayName: "mine" });
    await expect(revokePatientTokenSecret(other.organisation.id, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revokePatientTokenSecret(t.organisation.id, "00000000-0000-0000-0000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
    expect((await t.db.patientTokenSecret.findUniqueOrThrow({ where: { id: created.id } })).revokedAt).toBeNull();
  });
});
