import { InngestTestEngine } from "@inngest/test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { prescriptionStorage, renderedKey } from "@/server/storage/prescription-files";
import { requestPrescriptionRender } from "@/server/domain/prescriptions/request-render";
import { claimDueTasks } from "@/server/domain/tasks/attempt";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { pdfText } from "@/tests/pdf-text";
import { createPrescription } from "@/tests/prescriptions";
import { backgroundTaskSweep, renderPrescriptionTask } from "./inngest";
import { inngest } from "./inngest-client";
import { announceDueTasks, taskDue } from "./task-runner";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const run = (data: { taskId: string; attempts: number }) =>
  new InngestTestEngine({ function: renderPrescriptionTask, events: [{ name: taskDue("prescription.render").name, data }] }).execute();

/**
 * Captures what would be sent to Inngest. A double, kept on purpose: no Inngest server runs here
 * (its dev server is a separate binary with network access); the functions themselves run for real
 * in InngestTestEngine, on the test's database.
 */
function captureSends() {
  const sent: { id?: string; name: string; data: { taskId: string; attempts: number } }[] = [];
  vi.spyOn(inngest, "send").mockImplementation((async (events: typeof sent | (typeof sent)[number]) => {
    sent.push(...(Array.isArray(events) ? events : [events]));
    return { ids: [] };
  }) as unknown as typeof inngest.send);
  return sent;
}

describe("prescription.render on Inngest", () => {
  it("is announced once per attempt, runs the render in a step, and a repeated event does nothing", async () => {
    const p = await createPrescription(t);
    await requestPrescriptionRender(p.id, t.organisation.id);
    const task = await t.db.backgroundTask.findFirstOrThrow({ where: { payload: { equals: { prescriptionId: p.id } } } });

    const sent = captureSends();
    expect(await announceDueTasks()).toEqual({ announced: 1 });
    expect(sent).toEqual([{ id: expect.stringMatching(`^rx-task-${task.id}-0-\\d+$`), name: "rx/task.prescription.render", data: { taskId: task.id, attempts: 0 } }]);
    expect(await announceDueTasks()).toEqual({ announced: 0 }); // leased: not announced again

    const { result } = await run(sent[0].data);
    expect(result).toEqual({ state: "DONE", attempted: true, nextAttemptAt: null });
    expect(await t.db.backgroundTask.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ state: "DONE", attempts: 1 });
    expect((await t.db.prescription.findUniqueOrThrow({ where: { id: p.id } })).renderedFileKey).toBe(renderedKey(p.id));
    expect(pdfText(await prescriptionStorage().get(renderedKey(p.id)))).toContain("Dr. Anna Schmidt");

    expect((await run(sent[0].data)).result).toEqual({ state: "DONE", attempted: false, nextAttemptAt: null });
    expect((await t.db.backgroundTask.findUniqueOrThrow({ where: { id: task.id } })).attempts).toBe(1);
  });

  it("records a failed attempt for a retry on the task's schedule instead of throwing", async () => {
    const broken = await t.db.backgroundTask.create({ data: { name: "prescription.render", payload: {} } });
    const [claim] = await claimDueTasks(1);
    expect(claim.id).toBe(broken.id);
    const { result, error } = await run({ taskId: claim.id, attempts: claim.attempts });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ state: "PENDING", attempted: true, nextAttemptAt: expect.any(Number) });
    expect(await t.db.backgroundTask.findUniqueOrThrow({ where: { id: broken.id } })).toMatchObject({
      state: "PENDING",
      attempts: 1,
      lastError: "The task's payload has no prescriptionId.",
    });
    await t.db.backgroundTask.delete({ where: { id: broken.id } });
  });

  it("announces again a task whose announcement was lost, once its lease has run out (the sweep)", async () => {
    const p = await createPrescription(t);
    await requestPrescriptionRender(p.id, t.organisation.id);
    const sent = captureSends();
    await announceDueTasks(); // this announcement is lost
    expect(sent).toHaveLength(1);
    expect((await new InngestTestEngine({ function: backgroundTaskSweep }).execute()).result).toEqual({ announced: 0 });

    await t.db.$executeRaw`UPDATE "BackgroundTask" SET "nextAttemptAt" = now() - interval '1 second' WHERE "state" = 'PENDING'`;
    expect((await new InngestTestEngine({ function: backgroundTaskSweep }).execute()).result).toEqual({ announced: 1 });
    expect(sent).toHaveLength(2);
    expect(sent[1].data).toEqual(sent[0].data);
    expect(sent[1].id).not.toBe(sent[0].id); // a new announcement, not deduplicated by Inngest
    expect((await run(sent[1].data)).result).toMatchObject({ state: "DONE", attempted: true });
    // The lost run turning up late finds the attempt made.
    expect((await run(sent[0].data)).result).toMatchObject({ state: "DONE", attempted: false });
  });
});
