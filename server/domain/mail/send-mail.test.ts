/**
 * The outbox against a real SMTP server in this process (tests/smtp-server.ts, a stand-in for the
 * operator's relay): a message is sent once, after its transaction commits; refusals and a relay
 * that is down are retried with the task runner's backoff until it answers; a 5xx fails it with its
 * reason; two senders never send one message twice; a new runner (a restart) sends what was pending.
 */
import { describe, expect, it } from "vitest";
import { runOrgCommand } from "@/scripts/org/command";
import { reloadConfig } from "@/server/config";
import { database } from "@/server/db/client";
import { claimDueTasks } from "@/server/domain/tasks/attempt";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { useSmtpRelay } from "@/tests/mail";
import { startSmtpServer } from "@/tests/smtp-server";
import { until } from "@/tests/wait";
import { queueMail } from "./outbox";
import { sendQueuedMail } from "./send-mail";

const relay = useSmtpRelay();
let counter = 0;

async function queue(t: Tenant, to = `patient-${++counter}@example.com`) {
  const db = await database();
  const id = await db.$transaction((tx) =>
    queueMail(tx, {
      organisationId: t.organisation.id,
      to,
      locale: "en",
      subjectId: null,
      template: { kind: "pharmacy_order_created", organisation: "Org", pharmacy: "Apotheke A", orderName: `PO-${counter}`, itemCount: 2, link: "http://localhost/pharmacy/orders/x" },
    }),
  );
  return { id: id!, to };
}

const row = async (id: string) => (await database()).mailMessage.findUniqueOrThrow({ where: { id } });
const tasksOf = async (mailId: string) =>
  (await database()).backgroundTask.findMany({ where: { name: "mail.send", payload: { path: ["mailId"], equals: mailId } }, orderBy: { createdAt: "asc" } });
const settled = (id: string) => until(async () => ((await row(id)).status !== "PENDING" ? row(id) : null));

describe("the e-mail outbox", () => {
  it("records a message with its task in the caller's transaction: a rolled-back change sends nothing", async () => {
    const t = await createTenant();
    const db = await database();
    await expect(
      db.$transaction(async (tx) => {
        await queueMail(tx, { organisationId: t.organisation.id, to: "x@example.com", locale: "de", subjectId: null, template: { kind: "pharmacy_order_created", organisation: "O", pharmacy: "P", orderName: "PO-1", itemCount: 1, link: "http://l/x" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db.mailMessage.count({ where: { organisationId: t.organisation.id } })).toBe(0);
    expect(await db.backgroundTask.count({ where: { name: "mail.send" } })).toBe(0);
  });

  it("sends a message once after the commit: sent, its Message-ID and the server's answer kept, its bodies erased", async () => {
    const t = await createTenant();
    const { id, to } = await queue(t);
    expect(await row(id)).toMatchObject({ status: "PENDING", attempts: 0, recipient: to, kind: "pharmacy_order_created", subject: `New pharmacy order PO-${counter}` });
    await relay.startRunner();
    const mail = await relay.mailTo(to);
    expect(mail).toMatchObject({ from: "no-reply@rx.example", subject: `New pharmacy order PO-${counter}`, messageId: `<${id}@rx.example>` });
    const sent = await settled(id);
    expect(sent).toMatchObject({ status: "SENT", attempts: 1, lastError: null, smtpMessageId: `<${id}@rx.example>`, sealedText: null, sealedHtml: null, leaseUntil: null });
    expect(sent.smtpResponse).toMatch(/queued as TEST/);
    expect(sent.sentAt).toBeInstanceOf(Date);
    await until(async () => (await tasksOf(id)).every((task) => task.state === "DONE"));
    // Sent is final: running its task again sends nothing.
    expect(await sendQueuedMail(id)).toBe("not_pending");
    expect(relay.smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it("retries a relay that refuses for now (451) with the task's backoff, and sends it once it accepts", async () => {
    const t = await createTenant();
    relay.smtp.answers.push({ code: 451, message: "4.3.0 Try again later" }, { code: 451, message: "4.3.0 Still busy" });
    const { id, to } = await queue(t);
    await relay.startRunner();
    const sent = await settled(id);
    expect(sent).toMatchObject({ status: "SENT", attempts: 3, lastError: null });
    expect(relay.smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    // The task is marked done just after the message is: wait for it rather than race it.
    const task = await until(async () => (await tasksOf(id)).find((row) => row.state === "DONE"));
    expect(task).toMatchObject({ state: "DONE", attempts: 3 });
  });

  it("retries a relay that is down, and sends the message when it is back", async () => {
    const t = await createTenant();
    await relay.smtp.stop();
    let id: string, to: string;
    try {
      ({ id, to } = await queue(t));
      await relay.startRunner();
      const refused = await until(async () => ((await row(id)).lastError ? row(id) : null));
      expect(refused).toMatchObject({ status: "PENDING" });
      expect(refused.lastError).toMatch(/ECONNREFUSED|connect/i);
      // The task records what failed without the words (they may quote an address): they are the
      // outbox's. It records them after the outbox row has its reason: waited for, not assumed.
      const task = await until(async () => (await tasksOf(id))[0]?.lastError ?? null);
      expect(task).toMatch(/^The e-mail was not sent \(E[A-Z]+\); the reason is in the outbox\.$/);
    } finally {
      // The relay is the file's: the next test finds it up whatever happened here.
      await relay.smtp.restart();
    }
    expect(await settled(id)).toMatchObject({ status: "SENT", lastError: null });
    expect((await row(id)).attempts).toBeGreaterThanOrEqual(2);
    expect(relay.smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it("fails a message the relay refuses for good (5xx) with the server's reason, and does not try again", async () => {
    const t = await createTenant();
    relay.smtp.answers.push({ code: 550, message: "5.1.1 Recipient address rejected: no such mailbox" });
    const { id } = await queue(t);
    await relay.startRunner();
    const failed = await settled(id);
    expect(failed).toMatchObject({ status: "FAILED", attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/550.*no such mailbox/);
    // Its task is done: no attempt is scheduled again.
    expect(await until(async () => ((await tasksOf(id))[0].state === "DONE" ? tasksOf(id) : null))).toMatchObject([{ attempts: 1 }]);
  });

  it("fails a message whose every attempt was refused for now, after the task's last attempt, with the last reason", async () => {
    const t = await createTenant();
    relay.smtp.answers.push(...Array.from({ length: 5 }, (_, i) => ({ code: 452, message: `4.2.2 Mailbox full (${i + 1})` })));
    const { id } = await queue(t);
    process.env.TASK_RETRY_BASE_MS = "10";
    reloadConfig();
    await relay.startRunner();
    const failed = await until(async () => ((await row(id)).status === "FAILED" ? row(id) : null), 20_000);
    process.env.TASK_RETRY_BASE_MS = "100";
    reloadConfig();
    expect(failed).toMatchObject({ attempts: 5 });
    expect(failed.lastError).toMatch(/Mailbox full \(5\)/);
    expect(await until(async () => ((await tasksOf(id))[0].state === "FAILED" ? tasksOf(id) : null))).toHaveLength(1);
  });

  it("never sends one message twice: two senders at once, and two runners with a task each", async () => {
    const t = await createTenant();
    const release = relay.smtp.hold();
    const before = relay.smtp.arrived();
    const { id, to } = await queue(t);
    // Two senders at once: one claims it, the other is told it is being sent.
    const both = Promise.allSettled([sendQueuedMail(id), sendQueuedMail(id)]);
    await until(async () => relay.smtp.arrived() > before && (await row(id)).leaseUntil !== null);
    release();
    const outcomes = await both;
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message)).sort()).toEqual(["The message is being sent by another attempt.", "sent"]);

    // Two runners, each with a task for one message (a duplicate task), the relay slow to answer.
    const second = await queue(t);
    await (await database()).$transaction((tx) => enqueueTask(tx, "mail.send", { mailId: second.id }));
    const hold = relay.smtp.hold();
    await Promise.all([relay.startRunner(), relay.startRunner()]);
    // One runner sends; the other's task finds it held and comes back later.
    await until(async () => (await tasksOf(second.id)).some((task) => task.lastError?.includes("being sent by another attempt")));
    hold();
    await until(async () => (await tasksOf(second.id)).every((task) => task.state === "DONE"));
    expect(await row(second.id)).toMatchObject({ status: "SENT", attempts: 1 });
    expect(relay.smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(relay.smtp.received.filter((m) => m.to.includes(second.to))).toHaveLength(1);
  });

  it("sends what was pending at a restart: a new runner over the same database, also a message a dead sender held", async () => {
    const t = await createTenant();
    const waiting = await Promise.all([queue(t), queue(t)]);
    // A process claimed the third one's task and began to send it, then died.
    const crashed = await queue(t);
    const db = await database();
    await claimDueTasks(10);
    await db.$executeRaw`UPDATE "MailMessage" SET "leaseUntil" = now() + interval '2 minutes', "attempts" = 1 WHERE "id" = ${crashed.id}`;

    await relay.startRunner();
    // The leases run out (as two minutes later): the new runner picks everything up.
    await db.$executeRaw`UPDATE "BackgroundTask" SET "nextAttemptAt" = now() - interval '1 second' WHERE "state" = 'PENDING'`;
    await db.$executeRaw`UPDATE "MailMessage" SET "leaseUntil" = now() - interval '1 second' WHERE "id" = ${crashed.id}`;
    for (const mail of [...waiting, crashed]) {
      expect(await settled(mail.id)).toMatchObject({ status: "SENT" });
      expect(relay.smtp.received.filter((m) => m.to.includes(mail.to))).toHaveLength(1);
    }
    expect((await row(crashed.id)).attempts).toBe(2);
  });

  it("signs in to the relay with SMTP_URL's credentials; wrong ones fail the message with the server's reason, never the password", async () => {
    const t = await createTenant();
    const secured = await startSmtpServer({ credentials: { user: "rx@relay.example", pass: "s3cret p@ss" } });
    const url = process.env.SMTP_URL;
    try {
      process.env.SMTP_URL = secured.url;
      reloadConfig();
      await relay.startRunner();
      const { id, to } = await queue(t);
      expect(await settled(id)).toMatchObject({ status: "SENT" });
      expect(secured.received.find((m) => m.to.includes(to))).toMatchObject({ user: "rx@relay.example" });

      process.env.SMTP_URL = secured.url.replace(encodeURIComponent("s3cret p@ss"), "wr0ng-pw");
      reloadConfig();
      const refused = await queue(t);
      const failed = await settled(refused.id);
      expect(failed).toMatchObject({ status: "FAILED", attempts: 1 });
      expect(failed.lastError).toMatch(/535/);
      expect(failed.lastError).not.toMatch(/wr0ng|s3cret/);
    } finally {
      process.env.SMTP_URL = url;
      reloadConfig();
      await secured.stop();
    }
  });
});

describe("npm run org with a mailer", () => {
  it("prints the invitation and e-mails it at once: the same link arrives", async () => {
    // The command in this process, on this file's database (its process start is tested in
    // server/trpc/organisations.test.ts).
    const email = `cli-${crypto.randomUUID().slice(0, 8)}@example.com`;
    let stdout = "";
    const code = await runOrgCommand(["create", "--name", "Mail Apotheke", "--admin-email", email], { log: (line) => void (stdout += `${line}\n`), error: () => {} });
    expect(code).toBe(0);
    const printed = /https?:\/\/\S+\/invitation\/\S+/.exec(stdout)?.[0];
    expect(printed, stdout).toBeTruthy();
    expect(stdout).toContain(`It is e-mailed to ${email}.`);
    const mail = await relay.mailTo(email);
    expect(mail.subject).toBe("Ihre Einladung zu Mail Apotheke");
    expect(mail.text).toContain(printed);
  });
});
