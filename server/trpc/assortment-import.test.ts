/**
 * The assortment CSV: the file's format (separator from the header, BOM, columns by exact name,
 * cells), the preview's outcome for every row and every kind of error, the import all or nothing
 * with one pharmacy_sku_stock_updated per SKU whose stock changed, the pharmacist's import limited to
 * the SKUs carried, and the export read back unchanged. Through the portals' doors (pharmacy.stock,
 * admin.pharmacyStock) where the door decides something.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createSku } from "@/server/domain/catalogue/skus";
import { UnprocessableError } from "@/server/domain/errors";
import { TRPC_CSV_TEXT_MAX_CHARS } from "@/server/http/body-limits";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { createCaller } from "@/server/trpc/router";
import { as } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { onPostgres, untilWaitingForLock } from "@/tests/locks";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { ASSORTMENT_CSV_MAX_ROWS, parseAssortmentCsv } from "@/server/domain/catalogue/assortment-csv";
import { exportAssortment } from "@/server/domain/catalogue/export-assortment";
import { applyAssortmentImport, previewAssortmentImport, type ImportRow } from "@/server/domain/catalogue/import-assortment";
import { organisationPharmacy } from "@/server/domain/catalogue/pharmacy-skus";

const SYSTEM = { type: "SYSTEM" } as const;
const refusal = async (work: Promise<unknown>) => work.then(() => expect.fail("expected a refusal"), (error: unknown) => error);
const english = (error: { english: string } | undefined) => error?.english;

describe("parseAssortmentCsv", () => {
  it("reads , or ; as the header line says, drops a BOM, takes header names in any case, skips blank lines, takes CRLF", () => {
    const comma = parseAssortmentCsv("\uFEFFSKU_UID, External_ID ,price_cents,stock\r\nu-1,A 1,450,10\r\n\r\n,,,\r\nu-2,\"B,2\",0,0\r\n");
    expect(comma).toEqual({
      ok: true,
      separator: ",",
      columns: ["sku_uid", "external_id", "price_cents", "stock"],
      rows: [
        { line: 2, skuUid: "u-1", pzn: undefined, externalId: "A 1", price: 450, stock: 10, errors: [] },
        { line: 5, skuUid: "u-2", pzn: undefined, externalId: "B,2", price: 0, stock: 0, errors: [] },
      ],
    });
    const semicolon = parseAssortmentCsv("pzn;price_eur;stock\n0123;4.5;3\n0456;12;\n");
    expect(semicolon.ok && semicolon.separator).toBe(";");
    expect(semicolon.ok && semicolon.rows.map((r) => [r.pzn, r.price, r.stock])).toEqual([
      ["0123", 450, 3],
      ["0456", 1200, undefined],
    ]);
  });

  it("refuses a file it cannot read as a whole, with one message", () => {
    const refused = (text: string) => {
      const parsed = parseAssortmentCsv(text);
      return parsed.ok ? "read" : parsed.error.english;
    };
    expect(refused("sku_uid,stock\nu-1,caf\uFFFD\n")).toBe("The file is not UTF-8 text. Save it as “CSV UTF-8” and choose it again.");
    expect(refused("")).toMatch(/^The file has no header line/);
    expect(refused("\n\nsku_uid\n")).toMatch(/^The file has no header line/);
    expect(refused("sku_uid;pzn,stock\n")).toBe("The header line has both commas and semicolons: use one of them to separate the columns.");
    expect(refused('sku_uid,external_id\nu-1,"open\n')).toBe("The file is not valid CSV near line 2 (a quote not closed or in the middle of a value).");
    expect(refused("sku_uid,Price,sku name\n")).toBe(
      "Unknown columns: “price”, “sku name”. Known columns: sku_uid, pzn, display_name, external_id, price_cents, stock, price_eur.",
    );
    expect(refused("sku_uid,stock,STOCK\n")).toBe("The column stock appears twice.");
    expect(refused("external_id,stock\nA,1\n")).toBe("The file needs a sku_uid or a pzn column to name the SKUs.");
    expect(refused(`sku_uid\n${"u\n".repeat(ASSORTMENT_CSV_MAX_ROWS + 1)}`)).toBe(
      `The file has ${ASSORTMENT_CSV_MAX_ROWS + 1} rows; at most ${ASSORTMENT_CSV_MAX_ROWS} can be imported at once.`,
    );
  });

  it("reports each row's bad cells, and reads a neutralised formula cell back as written", () => {
    const parsed = parseAssortmentCsv(
      [
        "sku_uid,pzn,external_id,price_cents,price_eur,stock",
        "u-1,,A,1,,2,extra",
        ",,A,1,,2",
        `u-3,,${"x".repeat(256)},,,`,
        "u-4,,A,-5,4.505,1.5",
        "u-5,,A,450,4.51,",
        "u-6,,A,451,4.51,2147483648",
        "u-7,'=SUM(1),'+49,99999999999,,",
      ].join("\n"),
    );
    if (!parsed.ok) throw new Error("expected rows");
    expect(parsed.rows.map((r) => [r.line, r.errors.map((e) => e.english)])).toEqual([
      [2, ["This row has 7 fields; the header has 6."]],
      [3, ["Neither sku_uid nor pzn is given."]],
      [4, ["external_id is longer than 255 characters."]],
      [
        5,
        [
          "price_cents must be a whole number of cents, 0 or more (not “-5”).",
          "price_eur must be euros with a dot and at most two decimals, e.g. 4.50 (not “4.505”).",
          "stock must be a whole number, 0 or more (not “1.5”).",
        ],
      ],
      [6, ["price_cents (450) and price_eur (4.51) disagree."]],
      [7, ["stock must be a whole number, 0 or more (not “2147483648”)."]],
      [8, ["price_cents must be a whole number of cents, 0 or more (not “99999999999”)."]],
    ]);
    expect(parsed.rows[5]).toMatchObject({ price: 451 });
    expect(parsed.rows[6]).toMatchObject({ pzn: "=SUM(1)", externalId: "+49" });
  });
});

describe("import preview and apply", () => {
  let t: Tenant;
  let admin: PortalSessionUser;
  let pharmacist: PortalSessionUser;
  let fresh: { id: string; pzn: string | null };

  beforeAll(async () => {
    t = await createTenant();
    admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    // Two SKUs with one PZN (the spec does not make PZNs unique).
    await createSku(t.organisation.id, t.product.id, { displayName: "Twin A", pzn: "77777777" }, SYSTEM);
    await createSku(t.organisation.id, t.product.id, { displayName: "Twin B", pzn: "77777777" }, SYSTEM);
    fresh = await createSku(t.organisation.id, t.product.id, { displayName: "Fresh", pzn: "88888888" }, SYSTEM);
  });

  const pharmacyA = () => organisationPharmacy(t.organisation.id, t.pharmacy.id);
  const outcomes = (rows: ImportRow[]) => rows.map((r) => [r.line, r.outcome, r.outcome === "error" ? r.errors.map(english) : []]);

  it("previews each row's outcome and error against the assortment as it is, and writes nothing", async () => {
    const other = await createTenant();
    const csv = [
      "sku_uid,pzn,external_id,price_cents,stock",
      `${t.sku.id},,A-1,450,10`, // as carried
      `${t.sku.id},,,,11`, // the same SKU again
      `,11111111,,,`, // by PZN: Aspirin again
      `${fresh.id},,F-1,100,`, // new, without stock
      `,88888888,F-1,100,5`, // new, by PZN (the same SKU as line 5)
      `${other.sku.id},,X,1,1`, // another organisation's
      `,77777777,T,1,1`, // two SKUs have it
      `,99999999,T,1,1`, // nobody has it
      `${t.rxSku.id},11111111,R,1,1`, // uid and PZN disagree
      `${t.digitalSku.id},,A-2,100,6`, // carried: stock 5 → 6
      `${t.rxSku.id},,,,`, // new, with nothing
    ].join("\n");
    const preview = await previewAssortmentImport(await pharmacyA(), csv, "admin");
    if (!preview.ok) throw new Error("expected rows");
    expect(outcomes(preview.rows)).toEqual([
      [2, "unchanged", []],
      [3, "error", ["The same SKU is already in line 2."]],
      [4, "error", ["The same SKU is already in line 2."]],
      [5, "error", ["A SKU new to the assortment needs stock."]],
      [6, "error", ["The same SKU is already in line 5."]],
      [7, "error", ["No SKU of the catalogue has this sku_uid."]],
      [8, "error", ["2 SKUs have the PZN 77777777: name the SKU by its sku_uid."]],
      [9, "error", ["No SKU of the catalogue has the PZN 99999999."]],
      [10, "error", ["The SKU of this sku_uid has the PZN 33333333, not 11111111."]],
      [11, "update", []],
      [12, "error", ["A SKU new to the assortment needs external_id, price_cents, stock."]],
    ]);
    expect(preview.rows[9]).toMatchObject({ before: { externalId: "A-2", price: 100, stock: 5 }, after: { externalId: "A-2", price: 100, stock: 6 } });
    expect(preview.counts).toEqual({ create: 0, update: 1, unchanged: 1, error: 9 });
    expect(await t.db.pharmacySku.count({ where: { pharmacyId: t.pharmacy.id, deletedAt: null } })).toBe(2);
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.digitalPharmacySku.id } })).stock).toBe(5);
  });

  it("refuses the whole file for one bad row: nothing written", async () => {
    const csv = [
      "sku_uid,external_id,price_cents,stock",
      `${t.sku.id},A-1,450,99`,
      `${fresh.id},F-1,100,5`,
      `${t.rxSku.id},R-1,oops,1`,
    ].join("\n");
    const error = await refusal(applyAssortmentImport(await pharmacyA(), csv, "admin", { type: "USER", userId: admin.id }));
    expect(error).toBeInstanceOf(UnprocessableError);
    expect((error as UnprocessableError).message).toBe("1 row has errors: nothing was imported. Preview the file to see them.");
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock).toBe(10);
    expect(await t.db.pharmacySku.count({ where: { pharmacyId: t.pharmacy.id, skuId: fresh.id } })).toBe(0);
    expect(await t.db.stockMovement.count({ where: { pharmacySku: { pharmacyId: t.pharmacy.id } } })).toBe(0);
    expect(await t.db.outboxEvent.count({ where: { pharmacyId: t.pharmacy.id } })).toBe(0);
    const unreadable = await refusal(applyAssortmentImport(await pharmacyA(), "external_id\nA\n", "admin", { type: "USER", userId: admin.id }));
    expect((unreadable as UnprocessableError).message).toBe("The file needs a sku_uid or a pzn column to name the SKUs.");
  });

  it("imports all of it: new SKUs, new values, one stock event per SKU whose stock changed and none for the rest; audited once", async () => {
    const tenant = await createTenant();
    const boss = await createPortalUser(tenant.db, { role: "ADMIN", organisationId: tenant.organisation.id });
    const pharmacy = await organisationPharmacy(tenant.organisation.id, tenant.pharmacy.id);
    const csv = [
      "sku_uid,pzn,external_id,price_eur,price_cents,stock",
      `${tenant.sku.id},,A-1,,,25`, // stock 10 → 25
      `${tenant.digitalSku.id},,A-2b,1.99,199,`, // price and id only: no stock event
      `,33333333,R-1,25.00,,0`, // new, stock 0: no movement, no event
      `,11111111,,,,`, // nothing to change? Aspirin again: an error
    ].join("\n");
    const refused = await refusal(applyAssortmentImport(pharmacy, csv, "admin", { type: "USER", userId: boss.id }, { organisationId: tenant.organisation.id }));
    expect(refused).toBeInstanceOf(UnprocessableError);
    const good = csv.split("\n").slice(0, 4).join("\n");
    const counts = await applyAssortmentImport(pharmacy, good, "admin", { type: "USER", userId: boss.id }, { organisationId: tenant.organisation.id });
    expect(counts).toEqual({ create: 1, update: 2, unchanged: 0, error: 0 });

    const aspirin = await tenant.db.pharmacySku.findUniqueOrThrow({ where: { id: tenant.pharmacySku.id } });
    expect(aspirin).toMatchObject({ stock: 25, price: 450, externalId: "A-1" });
    expect(await tenant.db.pharmacySku.findUniqueOrThrow({ where: { id: tenant.digitalPharmacySku.id } })).toMatchObject({ stock: 5, price: 199, externalId: "A-2b" });
    const rx = await tenant.db.pharmacySku.findFirstOrThrow({ where: { pharmacyId: tenant.pharmacy.id, skuId: tenant.rxSku.id } });
    expect(rx).toMatchObject({ stock: 0, price: 2500, externalId: "R-1" });

    const events = await tenant.db.outboxEvent.findMany({ where: { pharmacyId: tenant.pharmacy.id }, select: { eventType: true, subjectId: true } });
    expect(events).toEqual([{ eventType: "pharmacy_sku_stock_updated", subjectId: aspirin.id }]);
    expect(await tenant.db.stockMovement.findMany({ where: { pharmacySku: { pharmacyId: tenant.pharmacy.id } } })).toEqual([
      expect.objectContaining({ pharmacySkuId: aspirin.id, delta: 15, stockAfter: 25, reason: "STOCK_UPDATE", actorType: "USER", actorUserId: boss.id }),
    ]);
    expect(await tenant.db.auditEvent.findMany({ where: { organisationId: tenant.organisation.id, action: "assortment_imported" } })).toEqual([
      expect.objectContaining({
        entityType: "pharmacy",
        entityId: tenant.pharmacy.id,
        summary: "Assortment of Apotheke A imported from CSV: 1 added, 2 updated, 0 unchanged",
      }),
    ]);

    // The same file again: every row unchanged, nothing recorded.
    const again = await applyAssortmentImport(pharmacy, good, "admin", { type: "USER", userId: boss.id });
    expect(again).toEqual({ create: 0, update: 0, unchanged: 3, error: 0 });
    expect(await tenant.db.outboxEvent.count({ where: { pharmacyId: tenant.pharmacy.id } })).toBe(1);
  });

  it("a stock-only file from a pharmacist: one event per changed SKU, no audit; SKUs outside the assortment are errors", async () => {
    const tenant = await createTenant({ hiddenSkuType: "DIGITAL" });
    const own = await createPortalUser(tenant.db, { role: "PHARMACIST", organisationId: tenant.organisation.id, pharmacyId: tenant.pharmacy.id });
    const outside = ["sku_uid;stock", `${tenant.sku.id};11`, `${tenant.rxSku.id};4`, `${tenant.digitalSku.id};9`].join("\n");
    const preview = await as(own).pharmacy.stock.importPreview({ csv: outside });
    if (!preview.ok) throw new Error("expected rows");
    expect(preview.rows.map((r) => [r.line, r.outcome, r.errors])).toEqual([
      [2, "update", []],
      [3, "error", ["This SKU is not in the pharmacy's assortment: only your organisation can add it."]],
      [4, "error", ["This pharmacy hides digital SKUs."]],
    ]);
    expect(preview.rows[0]).toMatchObject({ sku: { uid: tenant.sku.id, displayName: "Aspirin 500 mg", pzn: "11111111" }, before: { stock: 10 }, after: { stock: 11 } });
    const refused = await refusal(as(own).pharmacy.stock.importApply({ csv: outside }));
    expect(refused).toMatchObject({ code: "UNPROCESSABLE_CONTENT", message: "2 rows have errors: nothing was imported. Preview the file to see them." });
    expect(await tenant.db.pharmacySku.count({ where: { pharmacyId: tenant.pharmacy.id, skuId: tenant.rxSku.id } })).toBe(0);

    const counts = await as(own).pharmacy.stock.importApply({ csv: outside.split("\n").slice(0, 2).join("\n") });
    expect(counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    expect(await tenant.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId: tenant.pharmacySku.id } })).toBe(1);
    expect(await tenant.db.stockMovement.findFirst({ where: { pharmacySkuId: tenant.pharmacySku.id } })).toMatchObject({ actorUserId: own.id, delta: 1 });
    expect(await tenant.db.auditEvent.count({ where: { organisationId: tenant.organisation.id, action: "assortment_imported" } })).toBe(0);
  });

  // PostgreSQL only (transactions at once): a stock change committing while the import waits for the
  // row. The import reads the stock under the row's lock, so its movement starts from that change.
  it.skipIf(!onPostgres)("an import waits for a stock change in flight and records its movement from the stock that change left", async () => {
    const tenant = await createTenant();
    const pharmacy = await organisationPharmacy(tenant.organisation.id, tenant.pharmacy.id);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let changed!: () => void;
    const holding = new Promise<void>((resolve) => (changed = resolve));
    const completion = tenant.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "PharmacySku" WHERE "id" = ${tenant.pharmacySku.id} FOR UPDATE`;
        await tx.pharmacySku.update({ where: { id: tenant.pharmacySku.id }, data: { stock: 4 } });
        changed();
        await released;
      }
    );
    await holding;
    const importing = applyAssortmentImport(pharmacy, `sku_uid,stock\n${tenant.sku.id},20\n`, "pharmacy", SYSTEM);
    await untilWaitingForLock(tenant.db); // the import waits on the pharmacy SKU's row
    release();
    await completion;
    expect(await importing).toMatchObject({ update: 1 });
    expect(await tenant.db.stockMovement.findMany({ where: { pharmacySkuId: tenant.pharmacySku.id }, select: { delta: true, stockAfter: true } })).toEqual([
      { delta: 16, stockAfter: 20 },
    ]);
  });

  it("the preview's rows are worded in the caller's language; a pharmacist acts only for the pharmacies in reach", async () => {
    const de = await createCaller({ user: pharmacist, locale: "de" }).pharmacy.stock.importPreview({ csv: "sku_uid\nnope\n" });
    expect(de.ok && de.rows[0]!.errors).toEqual(["Keine SKU des Katalogs hat diese sku_uid."]);
    const unreadable = await as(pharmacist).pharmacy.stock.importPreview({ csv: "stock\n1\n" });
    expect(unreadable).toEqual({ ok: false, error: "The file needs a sku_uid or a pzn column to name the SKUs." });
    expect(await trpcCode(as(pharmacist).pharmacy.stock.importPreview({ pharmacyUid: t.loosePharmacy.id, csv: "sku_uid\n" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.exportCsv({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
  });

  it("export → import: every row unchanged, with , or ;; the export is what the pharmacy sees, formulas neutralised", async () => {
    const tenant = await createTenant({ hiddenSkuType: "DIGITAL" });
    const boss = await createPortalUser(tenant.db, { role: "ADMIN", organisationId: tenant.organisation.id });
    const odd = await createSku(tenant.organisation.id, tenant.product.id, { displayName: "=HYPERLINK(\"x\")" }, SYSTEM);
    await tenant.db.pharmacySku.create({ data: { pharmacyId: tenant.pharmacy.id, skuId: odd.id, externalId: "-7; \"quoted\"", price: 5, stock: 0 } });
    const exported = await as(boss).admin.pharmacyStock.exportCsv({ pharmacyUid: tenant.pharmacy.id });
    expect(exported.pharmacyName).toBe("Apotheke A");
    // By SKU name; where a formula character sorts depends on the database's collation.
    expect(exported.csv.split("\n").sort()).toEqual(
      [
        "",
        "sku_uid,pzn,display_name,external_id,price_cents,stock",
        `${odd.id},,"'=HYPERLINK(""x"")","'-7; ""quoted""",5,0`,
        `${tenant.sku.id},11111111,Aspirin 500 mg,A-1,450,10`,
      ].sort(),
    );
    for (const separator of [",", ";"] as const) {
      const { csv } = await as(boss).admin.pharmacyStock.exportCsv({ pharmacyUid: tenant.pharmacy.id, separator });
      const preview = await as(boss).admin.pharmacyStock.importPreview({ pharmacyUid: tenant.pharmacy.id, csv });
      expect(preview.ok && preview.counts).toEqual({ create: 0, update: 0, unchanged: 2, error: 0 });
    }
    expect(await exportAssortment(await organisationPharmacy(tenant.organisation.id, tenant.loosePharmacy.id), ",")).toBe(
      "sku_uid,pzn,display_name,external_id,price_cents,stock\n",
    );
  });

  it("the import's door takes a file above the portals' 1 MiB body cap; other procedures do not", async () => {
    const tenant = await createTenant();
    const own = await createPortalUser(tenant.db, { role: "PHARMACIST", organisationId: tenant.organisation.id, pharmacyId: tenant.pharmacy.id });
    const rows = Array.from({ length: 12_000 }, () => `${tenant.sku.id},${"x".repeat(60)},450,10`);
    const csv = `sku_uid,external_id,price_cents,stock\n${rows.join("\n")}\n`;
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    expect(csv.length).toBeLessThan(TRPC_CSV_TEXT_MAX_CHARS);
    const post = (procedure: string) =>
      handleTrpcRequest(new Request(`http://localhost/api/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ csv }) }), async () => own);
    const preview = await post("pharmacy.stock.importPreview");
    expect(preview.status).toBe(200);
    const body = (await preview.json()) as { result: { data: { ok: true; counts: Record<string, number> } } };
    expect(body.result.data.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 11_999 });
    expect((await post("pharmacy.stock.update")).status).toBe(413);
  });
});
