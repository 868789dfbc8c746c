import { describe, expect, it } from "vitest";
import { isSignedStatus, normalisePrescriptionStatus, presentedStatus, PRESCRIPTION_STATUSES, storedSpellings } from "./statuses";

describe("prescription statuses", () => {
  it("normalises the three spellings of waiting for doctor to the stored one", () => {
    for (const spelling of ["waiting for doctor", "WAITING_FOR_DOCTOR", "waiting_for_doctor", " Waiting-For-Doctor "]) {
      expect(normalisePrescriptionStatus(spelling)).toBe("waiting for doctor");
    }
  });

  it("keeps every status in its one spelling and recognises it in any case and separator", () => {
    for (const status of PRESCRIPTION_STATUSES) expect(normalisePrescriptionStatus(status)).toBe(status);
    expect(normalisePrescriptionStatus("on hold")).toBe("ON_HOLD");
    expect(normalisePrescriptionStatus("non_qes_signed")).toBe("NON_QES_SIGNED");
    expect(normalisePrescriptionStatus("externally signed")).toBe("EXTERNALLY_SIGNED");
    expect(normalisePrescriptionStatus("SIGNED")).toBe("signed");
    expect(normalisePrescriptionStatus("shipped")).toBeNull();
    expect(presentedStatus("WAITING_FOR_DOCTOR")).toBe("waiting for doctor");
    expect(presentedStatus("something else")).toBe("something else");
  });

  it("knows the signed statuses and the stored spellings to query", () => {
    expect(["signed", "NON_QES_SIGNED", "EXTERNALLY_SIGNED", "externally_signed"].every(isSignedStatus)).toBe(true);
    expect(["approved", "waiting for doctor", "declined", "cancelled", "ON_HOLD"].some(isSignedStatus)).toBe(false);
    expect(storedSpellings(["waiting for doctor", "approved"]).sort()).toEqual(["WAITING_FOR_DOCTOR", "approved", "waiting for doctor", "waiting_for_doctor"].sort());
  });
});
