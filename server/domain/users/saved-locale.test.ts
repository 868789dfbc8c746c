import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { endSessions } from "@/server/auth/portal-session";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createPortalUser } from "@/tests/webhook-logs";
import { saveUserLocale, savedUserLocale } from "./saved-locale";

let t: Tenant;
let pharmacist: PortalSessionUser;

beforeAll(async () => {
  t = await createTenant();
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
});

describe("a user's language", () => {
  it("is none until chosen, then the saved choice", async () => {
    expect(await savedUserLocale(pharmacist.id, pharmacist.sessionVersion)).toBeNull();
    await saveUserLocale(pharmacist.id, pharmacist.sessionVersion, "de");
    expect(await savedUserLocale(pharmacist.id, pharmacist.sessionVersion)).toBe("de");
    expect((await t.db.user.findUniqueOrThrow({ where: { id: pharmacist.id } })).locale).toBe("de");
  });

  it("an ended session neither reads nor changes it", async () => {
    await saveUserLocale(pharmacist.id, pharmacist.sessionVersion, "en");
    await endSessions(pharmacist.id, pharmacist.sessionVersion);
    expect(await savedUserLocale(pharmacist.id, pharmacist.sessionVersion)).toBeNull();
    await saveUserLocale(pharmacist.id, pharmacist.sessionVersion, "de");
    expect(await savedUserLocale(pharmacist.id, pharmacist.sessionVersion + 1)).toBe("en");
  });

  it("the database takes only the portals' languages", async () => {
    await expect(t.db.user.update({ where: { id: pharmacist.id }, data: { locale: "fr" } })).rejects.toThrow();
  });
});
