import { beforeEach, describe, expect, it } from "vitest";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createPrescription } from "@/tests/prescriptions";
import { requestPrescriptionRender } from "./request-render";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

const renderTasks = (prescriptionId: string) =>
  t.db.backgroundTask.findMany({ where: { name: "prescription.render", payload: { equals: { prescriptionId } } } });

describe("requestPrescriptionRender", () => {
  it("publishes prescription.render for an unsigned prescription of the organisation, once per request", async () => {
    for (const status of ["waiting for doctor", "WAITING_FOR_DOCTOR", "ON_HOLD", "approved", "declined"]) {
      const p = await createPrescription(t, { status });
      expect(await requestPrescriptionRender(p.id, t.organisation.id)).toEqual({ uid: p.id });
      expect(await renderTasks(p.id), status).toMatchObject([{ state: "PENDING", attempts: 0, maxAttempts: 5, payload: { prescriptionId: p.id } }]);
    }
    const p = await createPrescription(t);
    await requestPrescriptionRender(p.id, t.organisation.id);
    await requestPrescriptionRender(p.id, t.organisation.id);
    expect(await renderTasks(p.id)).toHaveLength(2);
  });

  it("refuses a signed prescription with a conflict, and publishes nothing", async () => {
    for (const status of ["signed", "NON_QES_SIGNED", "EXTERNALLY_SIGNED", "non_qes_signed"]) {
      const p = await createPrescription(t, { status });
      const request = requestPrescriptionRender(p.id, t.organisation.id);
      await expect(request, status).rejects.toBeInstanceOf(ConflictError);
      await expect(request).rejects.toThrow("A signed prescription cannot be rendered again.");
      expect(await renderTasks(p.id)).toEqual([]);
    }
  });

  it("does not find a prescription of another organisation, a deleted one or an unknown uid", async () => {
    const other = await createTenant();
    const foreign = await createPrescription(other);
    const deleted = await createPrescription(t, { deleted: true });
    const before = await t.db.backgroundTask.count();
    for (const id of [foreign.id, deleted.id, "no-such-prescription"]) {
      await expect(requestPrescriptionRender(id, t.organisation.id)).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(await t.db.backgroundTask.count()).toBe(before);
    expect(await requestPrescriptionRender(foreign.id, other.organisation.id)).toEqual({ uid: foreign.id });
  });
});
