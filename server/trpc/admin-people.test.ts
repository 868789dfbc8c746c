import { createHash, randomBytes, scrypt } from "node:crypto";
import { promisify } from "node:util";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "@/server/auth/password";
import { authorizeCredentials, type PortalSessionUser } from "@/server/auth/portal-session";
import { SIGN_IN_LIMITS } from "@/server/auth/sign-in-throttle";
import { ValidationError } from "@/server/domain/errors";
import { describePasswordToken } from "@/server/domain/users/password-tokens";
import { toFieldErrors } from "@/server/wire/field-errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { createCaller } from "./router";

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctorUser: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let otherUser: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });
const tag = () => randomBytes(4).toString("hex");
const PASSWORD = "correct horse battery";

/** The field errors a refused call carries (as the error formatter sends them). */
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

const tokenOf = (link: string | null) => link!.split("/").at(-1)!;
const auditOf = (entityId: string) => t.db.auditEvent.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Busy" } });
  doctorUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctor.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
  otherUser = await createPortalUser(other.db, { role: "PHARMACIST", organisationId: other.organisation.id, pharmacyId: other.pharmacy.id });
});

describe("adminUsers: who may call", () => {
  const calls = (caller: ReturnType<typeof as>) => [
    () => caller.admin.users.list(),
    () => caller.admin.users.bindingChoices(),
    () => caller.admin.users.add({ email: `x-${tag()}@example.com`, name: "X", role: "ADMIN" }),
    () => caller.admin.users.deactivate({ userUid: pharmacist.id }),
    () => caller.admin.users.reactivate({ userUid: pharmacist.id }),
    () => caller.admin.users.issuePasswordReset({ userUid: pharmacist.id }),
  ];

  it("refuses nobody signed in (UNAUTHORIZED), pharmacists and doctors (FORBIDDEN), writing nothing", async () => {
    const usersBefore = await t.db.user.count({ where: { organisationId: t.organisation.id } });
    for (const call of calls(as(null))) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(as(pharmacist))) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(as(doctorUser))) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await t.db.user.count({ where: { organisationId: t.organisation.id } })).toBe(usersBefore);
    expect(await t.db.userToken.count({ where: { userId: pharmacist.id } })).toBe(0);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: pharmacist.id } })).deactivatedAt).toBeNull();
  });

  it("answers NOT_FOUND for another organisation's user, pharmacy, group or doctor, and changes nothing", async () => {
    expect(await trpcCode(as(admin).admin.users.deactivate({ userUid: otherUser.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.users.reactivate({ userUid: otherUser.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.users.issuePasswordReset({ userUid: otherUser.id }))).toBe("NOT_FOUND");
    expect((await other.db.user.findUniqueOrThrow({ where: { id: otherUser.id } })).deactivatedAt).toBeNull();
    expect(await other.db.userToken.count({ where: { userId: otherUser.id } })).toBe(0);

    const foreignDoctor = await other.db.doctor.create({ data: { organisationId: other.organisation.id, displayName: "Dr. Elsewhere" } });
    const emails = [`a-${tag()}@example.com`, `b-${tag()}@example.com`, `c-${tag()}@example.com`];
    expect(await trpcCode(as(admin).admin.users.add({ email: emails[0], name: "P", role: "PHARMACIST", pharmacyUid: other.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.users.add({ email: emails[1], name: "P", role: "PHARMACIST", pharmacyGroupUid: other.group.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).admin.users.add({ email: emails[2], name: "D", role: "DOCTOR", doctorUid: foreignDoctor.id }))).toBe("NOT_FOUND");
    expect(await t.db.user.count({ where: { email: { in: emails } } })).toBe(0);

    const listed = (await as(admin).admin.users.list()).map((u) => u.uid);
    expect(listed).toContain(pharmacist.id);
    expect(listed).not.toContain(otherUser.id);
    expect(listed).not.toContain(otherAdmin.id);
  });
});

describe("admin.users.add", () => {
  it("invites a pharmacist: no password, a link shown once whose token is stored only as a hash, valid 7 days, audited", async () => {
    const email = `inv-${tag()}@example.com`;
    const added = await as(admin).admin.users.add({ email, name: "Ina Vited", role: "PHARMACIST", pharmacyUid: t.pharmacy.id });
    expect(added.invitationLink).toMatch(/\/invitation\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(added.invitationLink!);
    const user = await t.db.user.findUniqueOrThrow({ where: { id: added.uid }, include: { tokens: true } });
    expect(user).toMatchObject({ email, role: "PHARMACIST", pharmacyId: t.pharmacy.id, passwordHash: null, deactivatedAt: null });
    expect(user.tokens).toHaveLength(1);
    expect(user.tokens[0]).toMatchObject({ purpose: "INVITATION", usedAt: null, createdById: admin.id, tokenHash: createHash("sha256").update(token).digest("hex") });
    expect(JSON.stringify(await t.db.userToken.findMany({ where: { userId: user.id } }))).not.toContain(token);
    const days = (user.tokens[0].expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect((await as(admin).admin.users.list()).find((u) => u.uid === user.id)).toMatchObject({ status: "invited", pharmacy: { uid: t.pharmacy.id } });
    const audit = await auditOf(user.id);
    expect(audit).toMatchObject([{ entityType: "user", action: "invited", actorUserId: admin.id }]);
    expect(JSON.stringify(audit)).not.toContain(token);
    // An invited user cannot sign in before choosing a password.
    expect(await authorizeCredentials(email, "anything at all", { "x-forwarded-for": "198.51.100.1" })).toBeNull();
  });

  it("creates a user with an initial password (argon2id), who can sign in at once", async () => {
    const email = `pw-${tag()}@example.com`;
    const added = await as(admin).admin.users.add({ email, name: "Pia Word", role: "PHARMACIST", pharmacyGroupUid: t.group.id, password: PASSWORD });
    expect(added.invitationLink).toBeNull();
    const user = await t.db.user.findUniqueOrThrow({ where: { id: added.uid } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.pharmacyGroupId).toBe(t.group.id);
    expect(await t.db.userToken.count({ where: { userId: user.id } })).toBe(0);
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.2" })).toMatchObject({ id: user.id, role: "PHARMACIST" });
    expect(await auditOf(user.id)).toMatchObject([{ action: "created" }]);
  });

  it("binds a doctor user to an existing Doctor without a user, or to a new Doctor", async () => {
    const free = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Free" } });
    const choices = await as(admin).admin.users.bindingChoices();
    expect(choices.doctors.map((d) => d.uid)).toContain(free.id);
    expect(choices.doctors.map((d) => d.uid)).not.toContain(doctorUser.doctorId);
    const existing = await as(admin).admin.users.add({ email: `doc-${tag()}@example.com`, name: "Dr. Free", role: "DOCTOR", doctorUid: free.id });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: existing.uid } })).doctorId).toBe(free.id);

    const created = await as(admin).admin.users.add({
      email: `newdoc-${tag()}@example.com`,
      name: "Dr. New",
      role: "DOCTOR",
      doctorName: "Dr. New",
      doctorEmail: "dr.new@example.com",
      doctorCanSignQes: true,
    });
    const row = await t.db.user.findUniqueOrThrow({ where: { id: created.uid }, include: { doctor: true } });
    expect(row.doctor).toMatchObject({ organisationId: t.organisation.id, displayName: "Dr. New", email: "dr.new@example.com", canSignQes: true });
  });

  it("refuses bad input with field errors and writes nothing", async () => {
    const before = await t.db.user.count();
    const doctorsBefore = await t.db.doctor.count({ where: { organisationId: t.organisation.id } });
    expect(await fieldErrors(as(admin).admin.users.add({ email: "not-an-email", name: "X", role: "ADMIN" }))).toHaveProperty("email");
    expect(await fieldErrors(as(admin).admin.users.add({ email: `x-${tag()}@example.com`, name: "X", role: "PHARMACIST" }))).toHaveProperty("pharmacyUid");
    expect(
      await fieldErrors(as(admin).admin.users.add({ email: `x-${tag()}@example.com`, name: "X", role: "PHARMACIST", pharmacyUid: t.pharmacy.id, pharmacyGroupUid: t.group.id })),
    ).toHaveProperty("pharmacyUid");
    expect(await fieldErrors(as(admin).admin.users.add({ email: `x-${tag()}@example.com`, name: "X", role: "DOCTOR" }))).toHaveProperty("doctorUid");
    expect(await fieldErrors(as(admin).admin.users.add({ email: `x-${tag()}@example.com`, name: "X", role: "ADMIN", password: "short" }))).toHaveProperty("password");
    // A taken e-mail (any case), and a Doctor that already has a user.
    expect(await fieldErrors(as(admin).admin.users.add({ email: pharmacist.email.toUpperCase(), name: "X", role: "ADMIN" }))).toEqual({
      email: ["A user with this e-mail address already exists."],
    });
    expect(await fieldErrors(as(admin).admin.users.add({ email: `x-${tag()}@example.com`, name: "X", role: "DOCTOR", doctorUid: doctorUser.doctorId! }))).toHaveProperty(
      "doctorUid",
    );
    expect(await t.db.user.count()).toBe(before);
    expect(await t.db.doctor.count({ where: { organisationId: t.organisation.id } })).toBe(doctorsBefore);
  });

  it("adds one user when the same invitation is sent twice at once", async () => {
    const email = `twice-${tag()}@example.com`;
    const results = await Promise.allSettled([1, 2].map(() => as(admin).admin.users.add({ email, name: "Twice", role: "ADMIN" })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.user.count({ where: { email } })).toBe(1);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(await fieldErrors(Promise.reject(loser.reason))).toEqual({ email: ["A user with this e-mail address already exists."] });
  });

  it("binds a Doctor to one user when two are added for it at once", async () => {
    const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Wanted" } });
    const results = await Promise.allSettled(
      [1, 2].map((i) => as(admin).admin.users.add({ email: `wanted-${i}-${tag()}@example.com`, name: "Dr. Wanted", role: "DOCTOR", doctorUid: doctor.id })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(await fieldErrors(Promise.reject(loser.reason))).toEqual({ doctorUid: ["This doctor already has a user."] });
    expect(await t.db.user.count({ where: { doctorId: doctor.id } })).toBe(1);
  });
});

describe("password links", () => {
  async function invite() {
    const email = `link-${tag()}@example.com`;
    const added = await as(admin).admin.users.add({ email, name: "Link", role: "PHARMACIST", pharmacyUid: t.pharmacy.id });
    return { email, uid: added.uid, token: tokenOf(added.invitationLink!) };
  }
  const setPassword = (token: string, purpose: "INVITATION" | "PASSWORD_RESET" = "INVITATION", password = PASSWORD) =>
    as(null).passwordLinks.setPassword({ token, purpose, password, confirmPassword: password });

  it("an invitation sets the password once; then the user signs in and the link says it was used", async () => {
    const { email, uid, token } = await invite();
    expect(await describePasswordToken(token, "INVITATION")).toMatchObject({ state: "valid", email });
    // The link is for one purpose: an invitation is no reset link.
    expect(await describePasswordToken(token, "PASSWORD_RESET")).toEqual({ state: "invalid" });
    expect(await fieldErrors(setPassword(token, "PASSWORD_RESET"))).toHaveProperty("token");
    expect(await setPassword(token)).toEqual({ email });
    const user = await t.db.user.findUniqueOrThrow({ where: { id: uid } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.3" })).toMatchObject({ id: uid });
    expect(await describePasswordToken(token, "INVITATION")).toEqual({ state: "used" });
    expect(await fieldErrors(setPassword(token, "INVITATION", "another long password"))).toEqual({
      token: ["This link has already been used. Sign in, or ask your administrator for a new one."],
    });
    expect(await auditOf(uid)).toMatchObject([{ action: "invited" }, { action: "password_set", actorUserId: uid }]);
  });

  it("is single use under concurrency: of two submits one wins", async () => {
    const { uid, token } = await invite();
    const results = await Promise.allSettled([setPassword(token, "INVITATION", "first password 123"), setPassword(token, "INVITATION", "second password 456")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((loser.reason as TRPCError).code).toBe("BAD_REQUEST");
    const winner = results.findIndex((r) => r.status === "fulfilled");
    const hash = (await t.db.user.findUniqueOrThrow({ where: { id: uid } })).passwordHash!;
    expect(await verifyPassword(winner === 0 ? "first password 123" : "second password 456", hash)).toBe(true);
    expect(await t.db.auditEvent.count({ where: { entityId: uid, action: "password_set" } })).toBe(1);
  });

  it("refuses an expired link, an unknown one, a short or unconfirmed password, without setting anything", async () => {
    const { uid, token } = await invite();
    expect(await fieldErrors(as(null).passwordLinks.setPassword({ token, purpose: "INVITATION", password: "short", confirmPassword: "short" }))).toHaveProperty("password");
    expect(
      await fieldErrors(as(null).passwordLinks.setPassword({ token, purpose: "INVITATION", password: PASSWORD, confirmPassword: `${PASSWORD}!` })),
    ).toHaveProperty("confirmPassword");
    await t.db.userToken.updateMany({ where: { userId: uid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await describePasswordToken(token, "INVITATION")).toEqual({ state: "expired" });
    expect(await fieldErrors(setPassword(token))).toEqual({ token: ["This link has expired. Ask your administrator for a new one."] });
    expect(await fieldErrors(setPassword("no-such-token"))).toHaveProperty("token");
    expect((await t.db.user.findUniqueOrThrow({ where: { id: uid } })).passwordHash).toBeNull();
  });

  it("a reset link replaces the password; issuing another makes the earlier one stop working", async () => {
    const email = `reset-${tag()}@example.com`;
    const { uid } = await as(admin).admin.users.add({ email, name: "Re Set", role: "ADMIN", password: PASSWORD });
    const first = await as(admin).admin.users.issuePasswordReset({ userUid: uid });
    const second = await as(admin).admin.users.issuePasswordReset({ userUid: uid });
    expect(second.resetLink).toMatch(/\/reset-password\/[A-Za-z0-9_-]{43}$/);
    expect(await describePasswordToken(tokenOf(first.resetLink), "PASSWORD_RESET")).toEqual({ state: "used" });
    expect(await fieldErrors(setPassword(tokenOf(first.resetLink), "PASSWORD_RESET", "a brand new password"))).toHaveProperty("token");
    await setPassword(tokenOf(second.resetLink), "PASSWORD_RESET", "a brand new password");
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.4" })).toBeNull();
    expect(await authorizeCredentials(email, "a brand new password", { "x-forwarded-for": "198.51.100.4" })).toMatchObject({ id: uid });
    expect((await auditOf(uid)).map((e) => e.action)).toEqual(["created", "password_reset_issued", "password_reset_issued", "password_set"]);
  });
});

describe("deactivation", () => {
  it("ends the user's sessions at once (their next tRPC call is refused); reactivation lets them sign in again, not the old sessions back", async () => {
    const user = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    expect(await as(user).pharmacy.pharmacies.list()).toEqual([{ uid: t.pharmacy.id, displayName: t.pharmacy.displayName }]);
    expect(await as(admin).admin.users.deactivate({ userUid: user.id })).toEqual({ deactivated: true });
    expect(await trpcCode(as(user).pharmacy.pharmacies.list())).toBe("UNAUTHORIZED");
    expect((await as(admin).admin.users.list()).find((u) => u.uid === user.id)?.status).toBe("deactivated");
    await as(admin).admin.users.reactivate({ userUid: user.id });
    expect(await trpcCode(as(user).pharmacy.pharmacies.list())).toBe("UNAUTHORIZED");
    // A new session (sign-in) carries the current version.
    const { sessionVersion } = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await as({ ...user, sessionVersion }).pharmacy.pharmacies.list()).toHaveLength(1);
    expect((await auditOf(user.id)).map((e) => e.action)).toEqual(["deactivated", "reactivated"]);
  });

  it("a deactivated user cannot sign in, and their unused links stop working", async () => {
    const email = `gone-${tag()}@example.com`;
    const { uid } = await as(admin).admin.users.add({ email, name: "Gone", role: "ADMIN", password: PASSWORD });
    const reset = await as(admin).admin.users.issuePasswordReset({ userUid: uid });
    await as(admin).admin.users.deactivate({ userUid: uid });
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.5" })).toBeNull();
    expect(await describePasswordToken(tokenOf(reset.resetLink), "PASSWORD_RESET")).toEqual({ state: "invalid" });
    expect(await trpcCode(as(admin).admin.users.issuePasswordReset({ userUid: uid }))).toBe("BAD_REQUEST");
  });

  it("an admin cannot deactivate themselves nor the last active admin, even when two admins try each other at once", async () => {
    const org = await createTenant();
    const a = await createPortalUser(org.db, { role: "ADMIN", organisationId: org.organisation.id });
    const b = await createPortalUser(org.db, { role: "ADMIN", organisationId: org.organisation.id });
    expect(await trpcCode(as(a).admin.users.deactivate({ userUid: a.id }))).toBe("BAD_REQUEST");
    const results = await Promise.allSettled([as(a).admin.users.deactivate({ userUid: b.id }), as(b).admin.users.deactivate({ userUid: a.id })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await org.db.user.count({ where: { organisationId: org.organisation.id, role: "ADMIN", deactivatedAt: null } })).toBe(1);
    const survivor = results[0].status === "fulfilled" ? a : b;
    const gone = survivor === a ? b : a;
    // The survivor is now the last admin; reactivating the other makes deactivation possible again.
    await as(survivor).admin.users.reactivate({ userUid: gone.id });
    await as(survivor).admin.users.deactivate({ userUid: gone.id });
    expect(await org.db.auditEvent.count({ where: { organisationId: org.organisation.id, action: "deactivated" } })).toBe(2);
  });
});

describe("passwords and sign-in", () => {
  it("hashes with argon2id and still verifies legacy scrypt hashes, re-hashing them on the next sign-in", async () => {
    const hash = await hashPassword(PASSWORD);
    expect(hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword("wrong password!", hash)).toBe(false);
    expect(await verifyPassword(PASSWORD, "garbage")).toBe(false);

    // A hash as the hand-written scrypt wrote it: scrypt$N$r$p$salt$hash (base64).
    const salt = randomBytes(16);
    const key = (await promisify(scrypt)(PASSWORD.normalize("NFKC"), salt, 32)) as Buffer;
    const legacy = ["scrypt", 16384, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
    expect(await verifyPassword(PASSWORD, legacy)).toBe(true);
    expect(await verifyPassword("wrong password!", legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash(hash)).toBe(false);

    const email = `legacy-${tag()}@example.com`;
    const user = await t.db.user.create({ data: { email, displayName: "Legacy", passwordHash: legacy, role: "ADMIN", organisationId: t.organisation.id } });
    expect(await authorizeCredentials(email, "wrong password!", { "x-forwarded-for": "198.51.100.6" })).toBeNull();
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(legacy);
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.6" })).toMatchObject({ id: user.id });
    const rehashed = (await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash!;
    expect(rehashed).toMatch(/^\$argon2id\$/);
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "198.51.100.6" })).toMatchObject({ id: user.id });
  });

  it("throttles guessing: after 10 failures per e-mail and address even the right password is refused; other addresses are not", async () => {
    const email = `guess-${tag()}@example.com`;
    await as(admin).admin.users.add({ email, name: "Guess", role: "ADMIN", password: PASSWORD });
    const from = { "x-forwarded-for": "203.0.113.7" };
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailAndAddress.points; i++) expect(await authorizeCredentials(email, `wrong guess ${i}`, from)).toBeNull();
    await expect(authorizeCredentials(email, PASSWORD, from)).rejects.toThrow(/^TooManyAttempts:15$/);
    await expect(authorizeCredentials(email.toUpperCase(), PASSWORD, from)).rejects.toThrow(/^TooManyAttempts:/);
    // Another address is counted apart.
    expect(await authorizeCredentials(email, PASSWORD, { "x-forwarded-for": "203.0.113.8" })).toMatchObject({ email });
  });

  it("a successful sign-in resets the e-mail and address count", async () => {
    const email = `reset-count-${tag()}@example.com`;
    await as(admin).admin.users.add({ email, name: "Count", role: "ADMIN", password: PASSWORD });
    const from = { "x-forwarded-for": "203.0.113.9" };
    const limit = SIGN_IN_LIMITS.perEmailAndAddress.points;
    for (let i = 0; i < limit - 1; i++) expect(await authorizeCredentials(email, `wrong ${i}`, from)).toBeNull();
    expect(await authorizeCredentials(email, PASSWORD, from)).toMatchObject({ email });
    for (let i = 0; i < limit - 1; i++) expect(await authorizeCredentials(email, `wrong again ${i}`, from)).toBeNull();
    expect(await authorizeCredentials(email, PASSWORD, from)).toMatchObject({ email });
  });

  it("throttles one address trying many e-mails (100 failures a day)", async () => {
    const from = { "x-forwarded-for": "203.0.113.10" };
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress.points; i++) expect(await authorizeCredentials(`nobody-${i}-${tag()}@example.com`, "whatever", from)).toBeNull();
    await expect(authorizeCredentials(`someone-${tag()}@example.com`, "whatever", from)).rejects.toThrow(/^TooManyAttempts:\d+$/);
  });
});
