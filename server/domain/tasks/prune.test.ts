import { describe, expect, it } from "vitest";
import { database } from "@/server/db/client";
import { pruneFinishedTasks } from "./attempt";

describe("finished task retention", () => {
  it("deletes finished tasks older than the cut-off, in batches, and never pending ones", async () => {
    const db = await database();
    const old = new Date("2026-01-01T00:00:00Z");
    const recent = new Date("2026-06-01T00:00:00Z");
    const row = (state: "DONE" | "FAILED" | "PENDING", finishedAt: Date | null) => ({
      name: "prescription.render",
      payload: { prescriptionId: "p" },
      state,
      finishedAt,
      nextAttemptAt: new Date(),
    });
    await db.backgroundTask.createMany({
      data: [...Array.from({ length: 5 }, () => row("DONE", old)), row("FAILED", old), row("DONE", recent), row("PENDING", null)],
    });
    expect(await pruneFinishedTasks(new Date("2026-03-01T00:00:00Z"), 2)).toBe(6);
    expect((await db.backgroundTask.findMany({ select: { state: true } })).map((t) => t.state).sort()).toEqual(["DONE", "PENDING"]);
  });
});
