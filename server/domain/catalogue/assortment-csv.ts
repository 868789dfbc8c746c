/**
 * The CSV format of a pharmacy's assortment (docs/decisions/catalogue.md#pharmacy-assortments): what
 * a file may hold and what each cell means, before anything is compared with the database. One row
 * names a SKU (`sku_uid` or `pzn`) and may give its `external_id`, its price in integer cents
 * (`price_cents`, or an explicitly named decimal-euro column `price_eur`) and its `stock`; an empty
 * cell gives nothing. `display_name` is for people reading an export and is ignored on import.
 */
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { errorText, type ErrorText } from "@/i18n/error-text";

/** The columns an export writes, in order; an import takes any of them, and price_eur. */
export const EXPORT_COLUMNS = ["sku_uid", "pzn", "display_name", "external_id", "price_cents", "stock"] as const;
const IMPORT_COLUMNS = [...EXPORT_COLUMNS, "price_eur"] as const;
export type AssortmentColumn = (typeof IMPORT_COLUMNS)[number];

/** Rows of one file (10,000 are measured: npm run bench -- --scenario assortments). The text's size is bounded by its door. */
export const ASSORTMENT_CSV_MAX_ROWS = 20_000;
const EXTERNAL_ID_MAX_LENGTH = 255;
const INT4_MAX = 2_147_483_647;

export type CsvSeparator = "," | ";";

/** One data row as the file gives it; a value is undefined when its cell is empty or its column absent. */
export type AssortmentCsvRow = {
  /** The file's line the row ends on (the header is line 1). */
  line: number;
  skuUid?: string;
  pzn?: string;
  externalId?: string;
  /** Cents, from price_cents or price_eur. */
  price?: number;
  stock?: number;
  /** What is wrong with the row's cells themselves. */
  errors: ErrorText[];
};

export type ParsedAssortmentCsv =
  | { ok: true; separator: CsvSeparator; columns: AssortmentColumn[]; rows: AssortmentCsvRow[] }
  | { ok: false; error: ErrorText };

/**
 * A spreadsheet runs a cell starting with = + - @ (or a tab or carriage return) as a formula: the
 * export writes such a value (a name or an id someone else typed) behind a `'`, which spreadsheets
 * show as text, and the import reads it back without it. A value that itself starts with `'` gets
 * one too, so that the import can tell the two apart and a round trip changes nothing.
 */
const ESCAPED_START = /^[=+\-@\t\r']/;
const neutralised = (value: string) => (ESCAPED_START.test(value) ? `'${value}` : value);
const restored = (cell: string) => (cell.startsWith("'") && ESCAPED_START.test(cell.slice(1)) ? cell.slice(1) : cell);

/** A cell quoted back in a message: bounded, so one long cell cannot flood the preview. */
const shown = (value: string) => (value.length > 40 ? `${value.slice(0, 39)}…` : value);

/**
 * The separator, decided once from the header line (never per cell): `;` when the header has
 * semicolons, else `,`. A header with both is refused: its column names cannot be told apart.
 */
function separatorOf(headerLine: string): CsvSeparator | null {
  const semicolons = headerLine.includes(";");
  const commas = headerLine.includes(",");
  if (semicolons && commas) return null;
  return semicolons ? ";" : ",";
}

function columnsOf(header: string[]): { columns: AssortmentColumn[] } | { error: ErrorText } {
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(IMPORT_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return { error: errorText("assortments.csv.unknownColumns", { columns: unknown.map((n) => `“${shown(n)}”`).join(", "), known: IMPORT_COLUMNS.join(", ") }) };
  }
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) return { error: errorText("assortments.csv.columnTwice", { column: twice }) };
  if (!names.includes("sku_uid") && !names.includes("pzn")) return { error: errorText("assortments.csv.noSkuColumn") };
  return { columns: names as AssortmentColumn[] };
}

const WHOLE = /^\d+$/;
const EUROS = /^(\d+)(?:\.(\d{1,2}))?$/;

/** A whole number 0 or more that fits an Int column, else null. */
function wholeNumber(cell: string): number | null {
  if (!WHOLE.test(cell)) return null;
  const n = Number(cell);
  return n <= INT4_MAX ? n : null;
}

/** Euros with a dot and at most two decimals, as integer cents (no floating point), else null. */
function euroCents(cell: string): number | null {
  const match = EUROS.exec(cell);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents <= INT4_MAX ? cents : null;
}

function rowOf(line: number, record: string[], columns: AssortmentColumn[]): AssortmentCsvRow {
  const row: AssortmentCsvRow = { line, errors: [] };
  if (record.length !== columns.length) {
    row.errors.push(errorText("assortments.csv.fieldCount", { count: record.length, expected: columns.length }));
    return row;
  }
  const cell = (column: AssortmentColumn): string | undefined => {
    const i = columns.indexOf(column);
    const value = i < 0 ? "" : restored(record[i].trim());
    return value === "" ? undefined : value;
  };
  row.skuUid = cell("sku_uid");
  row.pzn = cell("pzn");
  if (!row.skuUid && !row.pzn) row.errors.push(errorText("assortments.csv.skuMissing"));

  const externalId = cell("external_id");
  if (externalId !== undefined && externalId.length > EXTERNAL_ID_MAX_LENGTH) {
    row.errors.push(errorText("assortments.csv.externalIdTooLong", { max: EXTERNAL_ID_MAX_LENGTH }));
  } else row.externalId = externalId;

  const centsCell = cell("price_cents");
  const eurCell = cell("price_eur");
  const cents = centsCell === undefined ? undefined : wholeNumber(centsCell);
  const eur = eurCell === undefined ? undefined : euroCents(eurCell);
  if (cents === null) row.errors.push(errorText("assortments.csv.priceCentsInvalid", { value: shown(centsCell!) }));
  if (eur === null) row.errors.push(errorText("assortments.csv.priceEurInvalid", { value: shown(eurCell!) }));
  if (typeof cents === "number" && typeof eur === "number" && cents !== eur) {
    row.errors.push(errorText("assortments.csv.pricesDisagree", { cents: centsCell!, eur: eurCell! }));
  } else if (cents !== null && eur !== null) row.price = cents ?? eur;

  const stockCell = cell("stock");
  const stock = stockCell === undefined ? undefined : wholeNumber(stockCell);
  if (stock === null) row.errors.push(errorText("assortments.csv.stockInvalid", { value: shown(stockCell!) }));
  else row.stock = stock;
  return row;
}

/**
 * Reads an assortment file: UTF-8 text (a byte-order mark is dropped), a header line of known column
 * names (case-insensitive, surrounding spaces ignored), then one row per SKU; blank lines are
 * skipped. A file that cannot be read as a whole (no header, unknown or repeated columns, broken
 * quoting, too many rows, text that was not UTF-8) is refused with one message; otherwise each row
 * carries its own cell errors.
 */
export function parseAssortmentCsv(text: string): ParsedAssortmentCsv {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  // A file decoded as UTF-8 that was not (a spreadsheet's Windows-1252) shows replacement characters.
  if (body.includes("\uFFFD")) return { ok: false, error: errorText("assortments.csv.notUtf8") };
  const headerLine = body.split(/\r?\n/, 1)[0] ?? "";
  if (headerLine.trim() === "") return { ok: false, error: errorText("assortments.csv.noHeader") };
  const separator = separatorOf(headerLine);
  if (!separator) return { ok: false, error: errorText("assortments.csv.mixedSeparators") };
  let records: { record: string[]; info: { lines: number } }[];
  try {
    const options = { delimiter: separator, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, info: true };
    // With `info`, each record comes as { record, info } (csv-parse's types do not say so).
    records = parse(body, options) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) return { ok: false, error: errorText("assortments.csv.malformed", { line: (error as CsvError & { lines?: number }).lines ?? 1 }) };
    throw error;
  }
  const [header, ...data] = records;
  if (!header) return { ok: false, error: errorText("assortments.csv.noHeader") };
  const columns = columnsOf(header.record);
  if ("error" in columns) return { ok: false, error: columns.error };
  if (data.length > ASSORTMENT_CSV_MAX_ROWS) return { ok: false, error: errorText("assortments.csv.tooManyRows", { count: data.length, max: ASSORTMENT_CSV_MAX_ROWS }) };
  return { ok: true, separator, columns: columns.columns, rows: data.map((r) => rowOf(r.info.lines, r.record, columns.columns)) };
}

/** One exported row: the SKU, the pharmacy's id for it, its price in cents and its stock. */
export type AssortmentCsvLine = { skuUid: string; pzn: string | null; displayName: string; externalId: string; price: number; stock: number };

/** An assortment as CSV text with a header of EXPORT_COLUMNS, which the import reads back unchanged. */
export function assortmentCsv(lines: AssortmentCsvLine[], separator: CsvSeparator): string {
  return stringify(
    lines.map((l) => [l.skuUid, neutralised(l.pzn ?? ""), neutralised(l.displayName), neutralised(l.externalId), String(l.price), String(l.stock)]),
    { header: true, columns: [...EXPORT_COLUMNS], delimiter: separator, record_delimiter: "unix" },
  );
}
