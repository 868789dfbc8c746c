import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { attemptTask } from "@/server/domain/tasks/attempt";
import { TASK_HANDLERS } from "@/server/jobs/task-handlers";
import { TaskRunner } from "@/server/jobs/task-runner";
import { startApnsServer } from "@/tests/apns-server";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { until } from "@/tests/wait";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";
import { issueWalletPass } from "@/server/domain/wallet-passes/issue-pass";
import { buildPkpass } from "@/server/domain/wallet-passes/pkpass";
import { queuePushNotifications } from "@/server/domain/wallet-passes/push-notifications";
import { findLivePassById } from "@/server/domain/wallet-passes/queries";
import { revokeWalletPass } from "@/server/domain/wallet-passes/revoke-pass";

let t: Tenant;
let templates: Awaited<ReturnType<typeof createWalletTemplates>>;
let apns: Awaited<ReturnType<typeof startApnsServer>>;

beforeAll(async () => {
  t = await createTenant();
  templates = await createWalletTemplates(t);
  apns = await startApnsServer();
});
afterAll(async () => {
  await apns.close();
  useApns(null);
});

/** Points the APNs sender at the local stand-in (or at nothing: the sandbox's setting). */
function useApns(host: string | null) {
  if (host) Object.assign(process.env, { WALLET_APNS_HOST: host, WALLET_APNS_CA: apns.caPem });
  else for (const name of ["WALLET_APNS_HOST", "WALLET_APNS_CA"]) delete process.env[name];
  reloadConfig();
}

async function issuePass(firstName = "Erika") {
  const { patient, shopCustomerId } = await createCustomer(t, { firstName });
  const { pass } = await issueWalletPass(t.organisation.id, { templateId: templates.plain.id, shopIdentifier: t.shop.identifier, shopCustomerId });
  return { pass, patient };
}

async function queue(walletPassId: string, message: string) {
  const [notification] = await queuePushNotifications(t.organisation.id, [{ walletPassId, message }]);
  const task = await t.db.backgroundTask.findFirstOrThrow({ where: { name: "wallet_pass.push_notification", payload: { path: ["notificationId"], equals: notification.id } } });
  return { notification, task };
}

/** Attempts the task as the runner would, `times` times in a row (a failed attempt stays pending until the last). */
async function attempt(taskId: string, times = 1) {
  let outcome;
  for (let i = 0; i < times; i++) {
    const { attempts } = await t.db.backgroundTask.findUniqueOrThrow({ where: { id: taskId } });
    outcome = await attemptTask({ id: taskId, attempts }, TASK_HANDLERS);
  }
  return outcome;
}

const notificationRow = (id: string) => t.db.pushNotification.findUniqueOrThrow({ where: { id } });

describe("sending a push notification (the wallet_pass.push_notification task)", () => {
  it("fills the placeholders from the patient's profile fields, shows the message on the pass and marks the notification sent", async () => {
    useApns(null);
    const { pass, patient } = await issuePass("Erika");
    const field = await t.db.patientFieldDefinition.create({ data: { organisationId: t.organisation.id, key: "pickup_code", displayName: "Pick-up code" } });
    const empty = await t.db.patientFieldDefinition.create({ data: { organisationId: t.organisation.id, key: "nickname", displayName: "Nickname" } });
    await t.db.patientProperty.create({ data: { patientId: patient.id, fieldId: field.id, value: "A-17", source: "shop" } });
    await t.db.patientProperty.create({ data: { patientId: patient.id, fieldId: empty.id, value: "", source: "shop" } });
    const before = await t.db.walletPass.findUniqueOrThrow({ where: { id: pass.id } });
    const { notification, task } = await queue(pass.id, "Hi {first_name}{nickname}, code {pickup_code}{unknown_field}. { not a key }");
    expect(notification.status).toBe("queued");

    expect(await attempt(task.id)).toMatchObject({ state: "DONE" });
    const sent = await notificationRow(notification.id);
    expect(sent).toMatchObject({ status: "sent", sentAt: expect.any(Date), lastError: null, renderedMessage: "Hi Erika, code A-17. { not a key }" });
    expect(sent.message).toBe("Hi {first_name}{nickname}, code {pickup_code}{unknown_field}. { not a key }");
    const after = await t.db.walletPass.findUniqueOrThrow({ where: { id: pass.id } });
    expect(after.lastMessage).toBe("Hi Erika, code A-17. { not a key }");
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    // The pass itself now carries the message, with the change message that makes the phone announce it.
    const files = unzipSync(new Uint8Array(await buildPkpass((await findLivePassById(pass.id))!)));
    const passJson = JSON.parse(Buffer.from(files["pass.json"]).toString("utf8"));
    expect(passJson.generic.secondaryFields).toEqual([{ key: "message", label: "Message", value: "Hi Erika, code A-17. { not a key }", changeMessage: "%@" }]);
  });

  it("is sent by the background task runner on its own", async () => {
    useApns(null);
    const { pass } = await issuePass();
    const runner = new TaskRunner({ mode: "run", pollMs: 50 });
    await runner.start();
    try {
      const { notification } = await queue(pass.id, "Your parcel is on its way");
      await until(async () => (await notificationRow(notification.id)).status === "sent");
    } finally {
      await runner.stop();
    }
  });

  it("tells the pass's registered devices through APNs; a device APNs reports gone is unregistered", async () => {
    useApns(apns.host);
    const { pass } = await issuePass();
    await t.db.walletPassDevice.createMany({
      data: [
        { walletPassId: pass.id, deviceLibraryIdentifier: "phone-1", pushToken: "c0ffee01" },
        { walletPassId: pass.id, deviceLibraryIdentifier: "watch-1", pushToken: "c0ffee02" },
      ],
    });
    apns.answer("c0ffee02", 410, "Unregistered");
    const { notification, task } = await queue(pass.id, "Ready for pick-up");
    const seen = apns.pushes.length;
    expect(await attempt(task.id)).toMatchObject({ state: "DONE" });
    expect(apns.pushes.slice(seen).map((p) => [p.path, p.body, p.headers["apns-topic"]])).toEqual([
      ["/3/device/c0ffee01", "{}", "pass.example.rx-sandbox"],
      ["/3/device/c0ffee02", "{}", "pass.example.rx-sandbox"],
    ]);
    expect((await notificationRow(notification.id)).status).toBe("sent");
    expect((await t.db.walletPassDevice.findMany({ where: { walletPassId: pass.id } })).map((d) => d.deviceLibraryIdentifier)).toEqual(["phone-1"]);
  });

  it("stays queued while APNs fails and is retried; after the task's last attempt it is failed with the error", async () => {
    useApns("127.0.0.1:1");
    const { pass } = await issuePass();
    await t.db.walletPassDevice.create({ data: { walletPassId: pass.id, deviceLibraryIdentifier: "phone-2", pushToken: "dead01" } });
    const { notification, task } = await queue(pass.id, "Try again");
    expect(await attempt(task.id, 4)).toMatchObject({ state: "PENDING" });
    expect(await notificationRow(notification.id)).toMatchObject({ status: "queued", lastError: expect.stringContaining("ECONNREFUSED") });
    expect(await attempt(task.id)).toMatchObject({ state: "FAILED" });
    expect(await notificationRow(notification.id)).toMatchObject({ status: "failed", sentAt: null, lastError: expect.stringContaining("ECONNREFUSED") });
    useApns(null);
  });

  it("sends without APNs when none is configured (the sandbox): the pass carries the message, the devices fetch it when they next update", async () => {
    useApns(null);
    const { pass } = await issuePass();
    await t.db.walletPassDevice.create({ data: { walletPassId: pass.id, deviceLibraryIdentifier: "phone-3", pushToken: "abc123" } });
    const seen = apns.pushes.length;
    const { notification, task } = await queue(pass.id, "Sandbox message");
    await attempt(task.id);
    expect((await notificationRow(notification.id)).status).toBe("sent");
    expect(apns.pushes.length).toBe(seen);
  });

  it("fails a notification whose pass was revoked before it was sent, and leaves a finished one alone", async () => {
    useApns(null);
    const { pass } = await issuePass();
    const { notification, task } = await queue(pass.id, "Too late");
    await revokeWalletPass(t.organisation.id, pass.id, { type: "SYSTEM" });
    expect(await attempt(task.id)).toMatchObject({ state: "DONE" });
    expect(await notificationRow(notification.id)).toMatchObject({ status: "failed", lastError: "The wallet pass was revoked before the notification was sent." });
    expect((await t.db.walletPass.findUniqueOrThrow({ where: { id: pass.id } })).lastMessage).toBeNull();

    // Run again (a task runs at least once): nothing changes.
    const { pass: other } = await issuePass();
    const second = await queue(other.id, "Once");
    await attempt(second.task.id);
    const sent = await notificationRow(second.notification.id);
    await TASK_HANDLERS["wallet_pass.push_notification"]({ notificationId: second.notification.id }, { number: 2, last: true });
    expect(await notificationRow(second.notification.id)).toEqual(sent);
  });
});

describe("telling a pass's devices that it changed (the wallet_pass.updated task)", () => {
  const updateTasks = (walletPassId: string) =>
    t.db.backgroundTask.findMany({ where: { name: "wallet_pass.updated", payload: { path: ["walletPassId"], equals: walletPassId } }, orderBy: { createdAt: "asc" } });

  it("pushes to the devices of a refreshed pass and of a revoked one; a pass without devices asks for nothing", async () => {
    useApns(apns.host);
    const { pass, patient } = await issuePass();
    const shopCustomerId = (await t.db.shopCustomer.findFirstOrThrow({ where: { patientId: patient.id } })).shopCustomerId;
    const issueAgain = () => issueWalletPass(t.organisation.id, { templateId: templates.plain.id, shopIdentifier: t.shop.identifier, shopCustomerId });
    await issueAgain();
    expect(await updateTasks(pass.id)).toEqual([]);

    await t.db.walletPassDevice.create({ data: { walletPassId: pass.id, deviceLibraryIdentifier: "phone-9", pushToken: "feed09" } });
    expect((await issueAgain()).created).toBe(false);
    await revokeWalletPass(t.organisation.id, pass.id, { type: "SYSTEM" });
    const tasks = await updateTasks(pass.id);
    expect(tasks).toHaveLength(2);
    const seen = apns.pushes.length;
    for (const task of tasks) expect(await attempt(task.id)).toMatchObject({ state: "DONE" });
    expect(apns.pushes.slice(seen).map((p) => p.path)).toEqual(["/3/device/feed09", "/3/device/feed09"]);
    useApns(null);
  });
});
