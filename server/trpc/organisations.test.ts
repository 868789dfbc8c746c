import { execFile } from "node:child_process";
import { runOrgCommand } from "@/scripts/org/command";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeCredentials } from "@/server/auth/portal-session";
import { ValidationError } from "@/server/domain/errors";
import { describePasswordToken, setPasswordWithToken } from "@/server/domain/users/password-tokens";
import { createCaller } from "@/server/trpc/router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestOrder, routedOrderBody, withShopSkus, item } from "@/tests/orders";
import { createOrganisation, issueAdminLink, listOrganisations } from "@/server/domain/organisations/create-organisation";

const PASSWORD = "a long enough password";
const tokenOf = (link: string) => link.split("/").at(-1)!;
const uniqueEmail = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}@example.com`;

let first: Tenant;
let firstOrderId: string;
beforeAll(async () => {
  first = await createTenant();
  const { otcReference } = await withShopSkus(first);
  firstOrderId = (await createTestOrder(first, routedOrderBody(first, "org-test-1", first.pharmacy.id, [item(otcReference)]))).orderId;
});

describe("an operator's new organisation", () => {
  it("is a real organisation with its first admin invited: the link sets a password, and the admin signs in", async () => {
    const email = uniqueEmail("admin");
    const created = await createOrganisation({ name: "  Versandapotheke Muster GmbH ", adminEmail: email, adminName: "Erika Muster" });
    expect(created.displayName).toBe("Versandapotheke Muster GmbH");
    const organisation = await first.db.organisation.findUniqueOrThrow({ where: { id: created.organisationId } });
    expect(organisation.sandbox).toBe(false);
    const admin = await first.db.user.findUniqueOrThrow({ where: { id: created.adminUserId } });
    expect(admin).toMatchObject({ role: "ADMIN", email, displayName: "Erika Muster", passwordHash: null, organisationId: created.organisationId });
    expect(await describePasswordToken(tokenOf(created.invitationLink), "INVITATION")).toMatchObject({ state: "valid" });
    // Invited, not yet able to sign in: not an active admin.
    expect((await listOrganisations()).find((o) => o.organisationId === created.organisationId)).toMatchObject({ activeAdmins: 0, invitedAdmins: 1 });
    const audit = await first.db.auditEvent.findMany({ where: { organisationId: created.organisationId } });
    expect(audit).toEqual([expect.objectContaining({ entityType: "user", entityId: created.adminUserId, action: "invited", actorType: "SYSTEM" })]);

    await setPasswordWithToken(tokenOf(created.invitationLink), "INVITATION", PASSWORD);
    expect(await authorizeCredentials(email, PASSWORD)).toMatchObject({ id: created.adminUserId, role: "ADMIN", organisationId: created.organisationId });
    expect((await listOrganisations()).find((o) => o.organisationId === created.organisationId)).toMatchObject({ sandbox: false, activeAdmins: 1, invitedAdmins: 0 });
  });

  it("refuses a taken e-mail (any case), a blank name and a malformed e-mail, writing nothing", async () => {
    const before = await first.db.organisation.count();
    const email = uniqueEmail("taken");
    await createOrganisation({ name: "First", adminEmail: email });
    const refusals = await Promise.allSettled([
      createOrganisation({ name: "Second", adminEmail: email.toUpperCase() }),
      createOrganisation({ name: "   ", adminEmail: uniqueEmail("blank") }),
      createOrganisation({ name: "Third", adminEmail: "not-an-address" }),
    ]);
    const fields = refusals.map((r) => (r.status === "rejected" && r.reason instanceof ValidationError ? Object.keys(r.reason.fields) : r.status));
    expect(fields).toEqual([["adminEmail"], ["name"], ["adminEmail"]]);
    expect(await first.db.organisation.count()).toBe(before + 1);
  });

  it("gives an admin a new link: an invitation until a password is set, then a password reset; the old link stops working", async () => {
    const created = await createOrganisation({ name: "Links GmbH", adminEmail: uniqueEmail("links") });
    const renewed = await issueAdminLink(created.adminEmail.toUpperCase());
    expect(renewed.purpose).toBe("INVITATION");
    expect(await describePasswordToken(tokenOf(created.invitationLink), "INVITATION")).toMatchObject({ state: "used" });
    await setPasswordWithToken(tokenOf(renewed.link), "INVITATION", PASSWORD);
    const reset = await issueAdminLink(created.adminEmail);
    expect(reset.purpose).toBe("PASSWORD_RESET");
    expect(await describePasswordToken(tokenOf(reset.link), "PASSWORD_RESET")).toMatchObject({ state: "valid" });
  });

  it("two creations racing for one e-mail: one organisation, the other refused beside the e-mail", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.allSettled([createOrganisation({ name: "Race A", adminEmail: email }), createOrganisation({ name: "Race B", adminEmail: email })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ValidationError);
    expect(Object.keys((refused.reason as ValidationError).fields)).toEqual(["adminEmail"]);
    expect(await first.db.user.count({ where: { email } })).toBe(1);
    expect(await first.db.organisation.count({ where: { displayName: { in: ["Race A", "Race B"] } } })).toBe(1);
  });

  it("sees nothing of another organisation, in the admin tool (tRPC) or over its own Management key (REST)", async () => {
    const created = await createOrganisation({ name: "Second GmbH", adminEmail: uniqueEmail("second") });
    await setPasswordWithToken(tokenOf(created.invitationLink), "INVITATION", PASSWORD);
    const admin = (await authorizeCredentials(created.adminEmail, PASSWORD))!;
    const tool = createCaller({ user: admin, locale: "en" });

    expect((await tool.admin.orders.list({})).items).toEqual([]);
    expect(await tool.admin.pharmacies.list()).toEqual([]);
    expect((await tool.admin.users.list()).map((u) => u.email)).toEqual([created.adminEmail]);
    await expect(tool.admin.orders.get({ uid: firstOrderId })).rejects.toMatchObject({ code: "NOT_FOUND" });

    const { apiKey } = await tool.admin.apiKeys.create({ family: "MANAGEMENT", displayName: "ERP", permissions: ["order:read"] });
    const own = await call("GET", "/v1/management/orders/", { key: apiKey });
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ orders: [], totalRegistries: 0 });
    expect((await call("GET", `/v1/management/orders/${firstOrderId}/`, { key: apiKey })).status).toBe(404);
    // The first organisation's own key still finds its order.
    expect((await call("GET", `/v1/management/orders/${firstOrderId}/`, { key: first.keys.management })).status).toBe(200);
  });
});

describe("npm run org", () => {
  /**
   * The command in a process of its own, as an operator runs it: on PostgreSQL against this file's
   * database; on PGlite against an embedded database of its own in a fresh DATA_DIR (this file's is
   * in memory, out of another process's reach), migrated by the command as on a first run.
   */
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-org-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = () => {
    const { DATABASE_URL, ...rest } = process.env;
    return DATABASE_URL?.startsWith("postgres") ? process.env : { ...rest, DATA_DIR: dataDir };
  };
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", path.resolve("scripts/org.ts"), ...args], { env: env(), cwd: path.resolve(".") }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("creates an organisation in a process of its own, on a fresh database, and prints its admin's invitation link", async () => {
    const email = uniqueEmail("cli");
    const created = await run(["create", "--name", "CLI Apotheke", "--admin-email", email]);
    expect(created.code, created.stderr).toBe(0);
    const link = /https?:\/\/\S+\/invitation\/\S+/.exec(created.stdout)?.[0];
    expect(link, created.stdout).toBeTruthy();
    if (process.env.DATABASE_URL?.startsWith("postgres")) {
      expect(await describePasswordToken(tokenOf(link!), "INVITATION")).toMatchObject({ state: "valid" });
    }
    // One process migrating a fresh embedded database: a hang guard, not a speed bound.
  });

  /** The same commands in this process, on this file's database (no process start per case). */
  const command = async (args: string[]) => {
    const output = { stdout: "", stderr: "" };
    const code = await runOrgCommand(args, { log: (line) => void (output.stdout += `${line}\n`), error: (line) => void (output.stderr += `${line}\n`) });
    return { code, ...output };
  };

  it("refuses a taken e-mail and a bad flag (exit 2), lists organisations and gives an admin a new link", async () => {
    const email = uniqueEmail("cli-in");
    const created = await command(["create", "--name", "CLI Apotheke Zwei", "--admin-email", email]);
    expect(created.code, created.stderr).toBe(0);
    const link = /https?:\/\/\S+\/invitation\/\S+/.exec(created.stdout)?.[0];
    expect(await describePasswordToken(tokenOf(link!), "INVITATION")).toMatchObject({ state: "valid" });
    const again = await command(["create", "--name", "CLI Apotheke Zwei", "--admin-email", email]);
    expect(again).toMatchObject({ code: 2, stderr: expect.stringContaining("--admin-email: A user with this e-mail address already exists.") });
    expect(await command(["create", "--colour", "blue"])).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage:") });
    expect(await command(["create", "extra", "--name", "x"])).toMatchObject({ code: 2, stdout: expect.stringContaining("Usage:") });
    expect((await command(["list"])).stdout).toMatch(/CLI Apotheke Zwei {2}created .* admins: 0 active, 1 invited/);
    const reissued = await command(["admin-link", "--admin-email", email]);
    expect(reissued.code, reissued.stderr).toBe(0);
    expect(reissued.stdout).toMatch(/A new invitation for .*\n.*\/invitation\/\S+/);
    expect(await describePasswordToken(tokenOf(link!), "INVITATION")).toMatchObject({ state: "used" });
    expect(await command(["admin-link", "--admin-email", uniqueEmail("nobody")])).toMatchObject({ code: 2, stderr: expect.stringContaining("No active admin") });
  });
});
