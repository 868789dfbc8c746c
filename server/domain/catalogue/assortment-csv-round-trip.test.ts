import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assortmentCsv, parseAssortmentCsv, type CsvSeparator } from "./assortment-csv";

// What the platform stores is trimmed text (server/wire/schemas.ts text()), so those are the values an export holds.
const startsAwkwardly = fc.constantFrom("", "'", "''", "=", "'=", "+", "'+", "-", "@", "\t", "\r", '"', ";", ",", "\n", "'\t");
const storedText = fc
  .tuple(startsAwkwardly, fc.string({ unit: "binary", maxLength: 30 }), fc.constantFrom("", "'", '"', "\r\n", ";"))
  .map(([head, body, tail]) => `${head}${body}${tail}`.trim())
  .filter((v) => v.length > 0);

describe("assortment CSV: export → import is the identity", () => {
  it("for every stored value, with , and ;", () => {
    fc.assert(
      fc.property(storedText, storedText, fc.constantFrom<CsvSeparator>(",", ";"), (externalId, pzn, separator) => {
        const text = assortmentCsv([{ skuUid: "sku-1", pzn, displayName: externalId, externalId, price: 450, stock: 3 }], separator);
        const parsed = parseAssortmentCsv(text);
        if (!parsed.ok) throw new Error(parsed.error.english);
        expect(parsed.rows).toHaveLength(1);
        expect(parsed.rows[0]).toMatchObject({ skuUid: "sku-1", pzn, externalId, price: 450, stock: 3, errors: [] });
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a value that starts with ' and a formula character (the case that changed)", () => {
    for (const value of ["'=x", "''=x", "'", "'abc", "=x", "''"]) {
      const parsed = parseAssortmentCsv(assortmentCsv([{ skuUid: "s", pzn: null, displayName: "", externalId: value, price: 1, stock: 1 }], ","));
      expect(parsed.ok && parsed.rows[0].externalId).toBe(value);
    }
  });
});
