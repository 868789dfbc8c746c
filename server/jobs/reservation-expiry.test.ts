/** The reservation expiry job on both drivers: the embedded runner's schedule and Inngest's cron function. */
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { EMBEDDED_JOBS, scheduleJob } from "./embedded-runner";
import { reservationExpiry } from "./inngest";
import { RESERVATION_EXPIRY_JOB, runReservationExpiry } from "./reservation-expiry";

/** A reservation draft of the tenant holding one unit, whose hold ends `inMs` from now, in `status`. */
function reservation(t: Tenant, inMs: number, status = "reserved") {
  return t.db.draftOrder.create({
    data: {
      organisationId: t.organisation.id,
      shopId: t.shop.id,
      kind: "RESERVATION",
      status,
      holdExpiresAt: new Date(Date.now() + inMs),
      lines: { create: { skuId: t.sku.id, quantity: 1 } },
    },
  });
}

const statusOf = async (t: Tenant, id: string) => (await t.db.draftOrder.findUniqueOrThrow({ where: { id } })).status;

describe("reservation expiry job", () => {
  it("is scheduled every minute in-process and as an Inngest cron", () => {
    expect(EMBEDDED_JOBS.find((j) => j.id === RESERVATION_EXPIRY_JOB.id)?.everyMs).toBe(60_000);
    expect(reservationExpiry.opts).toMatchObject({ id: "reservation-expiry", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" } });
  });

  it("marks reservations whose hold ended as expired; live holds and consumed (open) drafts stay", async () => {
    const t = await createTenant();
    const ended = await reservation(t, -1000);
    const live = await reservation(t, 60_000);
    const consumed = await reservation(t, -1000, "open");
    const job = scheduleJob(EMBEDDED_JOBS.find((j) => j.id === RESERVATION_EXPIRY_JOB.id)!);
    try {
      expect(await job.tick()).toBe("ran");
    } finally {
      await job.stop();
    }
    expect([await statusOf(t, ended.id), await statusOf(t, live.id), await statusOf(t, consumed.id)]).toEqual(["expired", "reserved", "open"]);
    expect(await runReservationExpiry(new Date(Date.now() + 120_000))).toEqual({ expired: 1 });
    expect(await statusOf(t, live.id)).toBe("expired");
  });

  it("expires when Inngest invokes the function", async () => {
    const t = await createTenant();
    const ended = await reservation(t, -1000);
    const { result } = await new InngestTestEngine({ function: reservationExpiry }).execute();
    expect(result).toMatchObject({ expired: expect.any(Number) });
    expect(await statusOf(t, ended.id)).toBe("expired");
  });
});
