-- CreateIndex
CREATE INDEX "Order_patientId_idx" ON "Order"("patientId");


-- Hand-written (issue 23 rule 7): the search text of every pharmacy order in the new format, built
-- from what the order shows now (server/domain/pharmacy-orders/search-text.ts, pharmacyOrderSearchText):
-- shop order name, pharmacy order name, patient name, order uid, pharmacy order uid, each without
-- U+001F, joined by U+001F, lower-cased. The application lower-cases in JavaScript (every script);
-- lower() folds only ASCII on a C-locale database, so translate() folds the capitals of
-- Latin-1 Supplement and Latin Extended-A (U+00C0-U+017F) as JavaScript does.
UPDATE "PharmacyOrder" po
   SET "searchText" = translate(lower(concat_ws(chr(31),
         replace(coalesce(so."name", o."name"), chr(31), ''), replace(po."name", chr(31), ''),
         replace(pp."displayName", chr(31), ''), replace(po."orderId", chr(31), ''), replace(po."id", chr(31), ''))),
         'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ',
         'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįĳĵķĺļľŀłńņňŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷÿźżž')
  FROM "Order" o
  JOIN "PatientProfile" pp ON pp."id" = o."patientId"
  LEFT JOIN "ShopOrder" so ON so."orderId" = o."id"
 WHERE o."id" = po."orderId";
