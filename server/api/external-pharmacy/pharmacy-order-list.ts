import { Prisma } from "@/server/db/client";
import type { Driver } from "@/server/db/driver";
import { pharmacyOrderCountSql, pharmacyOrderPageIdsSql, type PharmacyOrderFilter } from "@/server/domain/pharmacy-orders/queries";
import type { Page } from "@/server/domain/paging";
import { paginatedJson } from "@/server/rest/validation";

/**
 * GET /pharmacy_orders, built by the database: one statement selects the page, turns every entry
 * into JSON text in exactly the bytes JSON.stringify(presentPharmacyOrder(view)) gives (the tests
 * compare the two for the same orders) and counts the total. The server then only frames the text.
 *
 * Why not rows presented in JavaScript, as everywhere else: the list is the busiest read of the
 * External Pharmacy API, and the server process is single-threaded. Measured on the orders bench
 * (100,000 orders), fetching the rows through Prisma, presenting and serialising them cost about
 * 3.5 ms of server CPU per page of 50 and 9 ms per page of 200; this statement costs the server
 * 0.8 and 1.7 ms (mostly receiving the text), and the database about 0.5 ms more per 50 rows than
 * the rows did (its plan is cached: the driver prepares it).
 *
 * Objects are record values (row_to_json writes them compactly, keys in column order); arrays are
 * string_agg of their elements, so they too carry no whitespace.
 */

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/**
 * Every 2-letter region code with its English name, as presentAddress shows it (addresses hold
 * the ISO code; intake accepts only codes that have a name). A constant of the statement's text:
 * PostgreSQL parses it once per connection (the driver prepares the statement).
 */
const COUNTRY_NAMES: Record<string, string> = {};
for (let a = 65; a <= 90; a++) {
  for (let b = 65; b <= 90; b++) {
    const code = String.fromCharCode(a, b);
    const name = regionNames.of(code);
    if (name !== undefined) COUNTRY_NAMES[code] = name;
  }
}
const countryNames = Prisma.raw(`'${JSON.stringify(COUNTRY_NAMES).replaceAll("'", "''")}'::jsonb`);

/** presentAddress of a jsonb address column. */
const addressJson = (column: Prisma.Sql) => Prisma.sql`(SELECT a FROM (SELECT
    ${column} -> 'first_name' AS "first_name", ${column} -> 'last_name' AS "last_name", ${column} -> 'street' AS "street",
    ${column} -> 'house_number' AS "house_number", ${column} -> 'zip_code' AS "zip_code", ${column} -> 'city' AS "city",
    coalesce(${countryNames} -> (${column} ->> 'country'), ${column} -> 'country') AS "country",
    ${column} -> 'additional_address' AS "additional_address", ${column} -> 'province' AS "province") a)`;

/** presentPharmacyOrder of the row `po` with its pharmacy `ph`, order `o` and shop order `so`. */
const entryJson = Prisma.sql`row_to_json((SELECT e FROM (SELECT
    po."id" AS "uid", po."status", po."name", so."name" AS "shop_order_name", po."externalStatus" AS "external_status",
    (SELECT p FROM (SELECT ph."id" AS "uid", ph."displayName" AS "display_name") p) AS "pharmacy",
    (SELECT x FROM (SELECT o."id" AS "uid",
        ${addressJson(Prisma.sql`o."deliveryAddress"`)} AS "delivery_address",
        ${addressJson(Prisma.sql`o."invoiceAddress"`)} AS "invoice_address",
        o."priority") x) AS "order",
    (SELECT ('[' || coalesce(string_agg(row_to_json((SELECT i FROM (SELECT
                       oi."id" AS "uid", poi."amount",
                       (SELECT k FROM (SELECT s."id" AS "uid", s."displayName" AS "display_name", s."pzn") k) AS "sku",
                       poi."totalPaidAmount" AS "total_paid_amount") i))::text, ',' ORDER BY oi."createdAt", oi."id"), '') || ']')::json
       FROM "PharmacyOrderItem" poi
       JOIN "OrderItem" oi ON oi."id" = poi."orderItemId"
       JOIN "Sku" s ON s."id" = oi."skuId"
      WHERE poi."pharmacyOrderId" = po."id") AS "order_items",
    (SELECT ('[' || coalesce(string_agg(row_to_json(m)::text, ',' ORDER BY m."external_id"), '') || ']')::json
       FROM (SELECT sm."id" AS "uid", sm."displayName" AS "display_name", sm."externalId" AS "external_id",
                    CASE WHEN map."identifierForPharmacy" IS NULL THEN NULL
                         ELSE (SELECT r FROM (SELECT po."pharmacyId" AS "pharmacy_uid",
                                                     map."identifierForPharmacy" AS "shipping_method_identifier_for_pharmacy") r) END
                      AS "pharmacy_mapping"
               FROM "ShopOrderShippingMethod" sosm
               JOIN "ShopShippingMethod" sm ON sm."id" = sosm."shopShippingMethodId"
               LEFT JOIN "PharmacyShippingMethodMapping" map
                      ON map."shopShippingMethodId" = sm."id" AND map."pharmacyId" = po."pharmacyId"
              WHERE sosm."shopOrderId" = so."id") m) AS "shop_shipping_methods",
    po."shippingCostsAmount" AS "shipping_costs_amount", po."shippingCostsCurrency" AS "shipping_costs_currency",
    floor(extract(epoch FROM po."createdAt"))::bigint AS "created_at", floor(extract(epoch FROM po."updatedAt"))::bigint AS "updated_at") e))`;

/** The response body of one page of a pharmacy's orders, newest first, with the total under the filter. */
export async function pharmacyOrderListJson(driver: Driver, filter: PharmacyOrderFilter, page: Page): Promise<string> {
  const statement = Prisma.sql`
    WITH page AS (${pharmacyOrderPageIdsSql(filter, page)})
    SELECT '[' || coalesce(string_agg(${entryJson}::text, ',' ORDER BY po."createdAt" DESC, po."id" DESC), '') || ']' AS "entries",
           (${pharmacyOrderCountSql(filter)}) AS "total"
      FROM page
      JOIN "PharmacyOrder" po ON po."id" = page."id"
      JOIN "Pharmacy" ph ON ph."id" = po."pharmacyId"
      JOIN "Order" o ON o."id" = po."orderId"
      LEFT JOIN "ShopOrder" so ON so."orderId" = o."id"`;
  const [{ entries, total }] = await driver.query<{ entries: string; total: number }>(statement.text, statement.values);
  return paginatedJson(entries, total, page);
}
