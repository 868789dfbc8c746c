import { describe, expect, it } from "vitest";
import { isSkipValue, resolveSkipValidation } from "./skip-validation";

describe("resolveSkipValidation", () => {
  it("is false when no level defines a flag", () => {
    expect(resolveSkipValidation({})).toBe(false);
    expect(resolveSkipValidation({ item: {}, group: { external_id: "f" }, order: {} })).toBe(false);
    expect(resolveSkipValidation({ item: null, group: "x", order: [true] })).toBe(false); // not objects: no flag there
  });

  it("takes true, 1, \"1\" and \"true\" (any case) as skip, every other defined value as do not skip", () => {
    for (const value of [true, 1, "1", "true", "TRUE", " True "]) expect(isSkipValue(value)).toBe(true);
    for (const value of [false, 0, 2, "0", "false", "yes", "", {}, []]) expect(isSkipValue(value)).toBe(false);
    expect(resolveSkipValidation({ item: { _skip_validation: "true" } })).toBe(true);
    expect(resolveSkipValidation({ item: { _skip_validation: 1 } })).toBe(true);
    expect(resolveSkipValidation({ item: { _skip_validation: "no" } })).toBe(false);
  });

  it("counts both flag names, and the service's own name at one level wins over the generic one", () => {
    expect(resolveSkipValidation({ item: { _service_skip_validation: true } })).toBe(true);
    expect(resolveSkipValidation({ item: { _rxscale_skip_validation: true } })).toBe(true);
    expect(resolveSkipValidation({ item: { _service_skip_validation: false, _skip_validation: true } })).toBe(false);
    expect(resolveSkipValidation({ item: { _service_skip_validation: true, _skip_validation: false } })).toBe(true);
    // A null flag is not defined: the next name at the level decides.
    expect(resolveSkipValidation({ item: { _service_skip_validation: null, _skip_validation: true } })).toBe(true);
  });

  it("lets the first level that defines a flag decide: line item, then group, then order", () => {
    expect(resolveSkipValidation({ order: { _skip_validation: true } })).toBe(true);
    expect(resolveSkipValidation({ group: { _skip_validation: true }, order: { _skip_validation: false } })).toBe(true);
    expect(resolveSkipValidation({ group: { _skip_validation: false }, order: { _skip_validation: true } })).toBe(false);
    expect(resolveSkipValidation({ item: { _skip_validation: false }, group: { _skip_validation: true }, order: { _skip_validation: true } })).toBe(false);
    expect(resolveSkipValidation({ item: { _service_skip_validation: "true" }, order: { _skip_validation: false } })).toBe(true);
    expect(resolveSkipValidation({ item: { quantity: 1 }, group: {}, order: { _service_skip_validation: 1 } })).toBe(true);
    // An undefined or null value at a level is no decision: the next level decides.
    expect(resolveSkipValidation({ item: { _skip_validation: undefined }, group: { _skip_validation: null }, order: { _skip_validation: true } })).toBe(true);
  });
});
