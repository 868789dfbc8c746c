/**
 * What an admin of one organisation can learn about another from the answers of the admin tool and
 * the Public API (docs/security.md#what-another-organisation-can-learn). E-mail addresses and shop
 * identifiers are unique across the platform (sign-in by e-mail; shop identifiers name shops in
 * Public API paths), so "taken" cannot be hidden; what the answer must not tell is WHERE: it is the
 * same, word for word, whether the value is taken in the admin's own organisation or in another,
 * and nothing is written. Everywhere else uniqueness is per organisation (or per shop), so another
 * organisation's values are not in the way at all.
 */
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";

let mine: Tenant;
let theirs: Tenant;
let me: AdminCallers;
let them: AdminCallers;

beforeAll(async () => {
  mine = await createTenant();
  theirs = await createTenant();
  me = await adminCallers(mine);
  them = await adminCallers(theirs);
});

/** The whole refusal as the admin tool sees it: code, message, field errors. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const e = error as TRPCError;
  return { code: e.code, message: e.message, fields: (e.cause as { fields?: unknown } | undefined)?.fields };
}

describe("what an admin learns about another organisation", () => {
  it("a user e-mail taken in another organisation is refused exactly as one taken in the admin's own, and nothing is written", async () => {
    const ownUser = await mine.db.user.findUniqueOrThrow({ where: { id: me.pharmacist.id } });
    const foreignUser = await theirs.db.user.findUniqueOrThrow({ where: { id: them.pharmacist.id } });
    const users = await mine.db.user.count();
    const add = (email: string) => as(me.admin).admin.users.add({ email, name: "New", role: "ADMIN" });
    const own = await refusal(add(ownUser.email));
    const foreign = await refusal(add(foreignUser.email));
    const foreignOtherCase = await refusal(add(foreignUser.email.toUpperCase()));
    expect(own).toEqual({ code: "BAD_REQUEST", message: expect.any(String), fields: { email: ["A user with this e-mail address already exists."] } });
    expect(foreign).toEqual(own);
    expect(foreignOtherCase).toEqual(own);
    expect(await mine.db.user.count()).toBe(users);
  });

  it("a shop identifier taken in another organisation is refused exactly as one taken in the admin's own", async () => {
    const shops = await mine.db.shop.count();
    const create = (identifier: string) => as(me.admin).admin.shops.create({ identifier, displayName: "New shop" });
    const own = await refusal(create(mine.shop.identifier));
    const foreign = await refusal(create(theirs.shop.identifier));
    expect(own.fields).toEqual({ identifier: ["A shop with this identifier already exists."] });
    expect(foreign).toEqual(own);
    expect(await mine.db.shop.count()).toBe(shops);
  });

  it("another organisation's shop identifier in a Public API path is answered as an unknown one", async () => {
    for (const path of ["/v2/public-api/products/:shop", "/v2/public-api/products/:shop/live-stock"]) {
      const foreign = await get(path.replace(":shop", theirs.shop.identifier), { key: mine.keys.public });
      const unknown = await get(path.replace(":shop", "no-such-shop"), { key: mine.keys.public });
      expect(foreign.status, path).toBe(unknown.status);
      expect(foreign.text.replace(theirs.shop.identifier, "X")).toBe(unknown.text.replace("no-such-shop", "X"));
    }
    const reserve = (shop: string) => post(`/v2/public-api/products/${shop}/reservation`, { key: mine.keys.public, body: { items: [] } });
    const foreign = await reserve(theirs.shop.identifier);
    const unknown = await reserve("no-such-shop");
    expect([foreign.status, foreign.text.replace(theirs.shop.identifier, "X")]).toEqual([unknown.status, unknown.text.replace("no-such-shop", "X")]);
  });

  it("values unique per organisation are free to reuse: another organisation's are not in the way", async () => {
    // Profile field keys (per organisation), telemedicine provider identifiers (per organisation).
    const theirField = await theirs.db.patientFieldDefinition.create({
      data: { organisationId: theirs.organisation.id, key: "insurance", displayName: "Insurance", type: "text" },
    });
    const mineField = await mine.db.patientFieldDefinition.create({
      data: { organisationId: mine.organisation.id, key: theirField.key, displayName: "Insurance", type: "text" },
    });
    expect(mineField.key).toBe(theirField.key);
  });
});
