-- DropIndex
DROP INDEX "Order_organisationId_createdAt_idx";

-- DropIndex
DROP INDEX "Order_patientId_idx";

-- AlterTable
ALTER TABLE "Fulfillment" ADD COLUMN     "needsPharmacy" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "OrderTally" (
    "id" BIGSERIAL NOT NULL,
    "organisationId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "onHold" BOOLEAN NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "OrderTally_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OrderTally_organisationId_status_idx" ON "OrderTally"("organisationId", "status");

-- CreateIndex
CREATE INDEX "Order_organisationId_createdAt_id_idx" ON "Order"("organisationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_patientId_organisationId_createdAt_id_idx" ON "Order"("patientId", "organisationId", "createdAt", "id");



-- Hand-written: the order tally (see OrderTally in schema.prisma), as the pharmacy order tally.
CREATE FUNCTION "order_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OrderTally" ("organisationId", "status", "onHold", "delta") VALUES (OLD."organisationId", OLD."status", OLD."onHold", -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OrderTally" ("organisationId", "status", "onHold", "delta") VALUES (NEW."organisationId", NEW."status", NEW."onHold", 1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Order_tally_insert_delete" AFTER INSERT OR DELETE ON "Order"
  FOR EACH ROW EXECUTE FUNCTION "order_tally"();
CREATE TRIGGER "Order_tally_update" AFTER UPDATE OF "organisationId", "status", "onHold" ON "Order"
  FOR EACH ROW WHEN (OLD."organisationId" IS DISTINCT FROM NEW."organisationId" OR OLD."status" IS DISTINCT FROM NEW."status"
                     OR OLD."onHold" IS DISTINCT FROM NEW."onHold")
  EXECUTE FUNCTION "order_tally"();
INSERT INTO "OrderTally" ("organisationId", "status", "onHold", "delta")
SELECT "organisationId", "status", "onHold", count(*) FROM "Order" GROUP BY "organisationId", "status", "onHold";

-- Hand-written: Fulfillment."needsPharmacy" (see schema.prisma), recomputed from its sources for the
-- fulfillments each change touches: inserted and deleted order items and pharmacy orders a statement
-- at a time (one set-based recomputation per statement, also for bulk loads), updates of them and of
-- a fulfillment's status when the transaction commits (deferred: re-routing gives one pharmacy order
-- back before making the next, cancelling a fulfillment cancels its items, and the flag is computed
-- from the end state). Each recomputation first locks the fulfillments (FOR NO KEY UPDATE: the lock an
-- update takes anyway, which leaves foreign-key checks alone); a transaction that waited for another's
-- lock then computes with a snapshot taken after that one committed, so the last recomputation of a
-- fulfillment sees every change before it. A change of a SKU's skipForPharmacyOrders recomputes every
-- fulfillment with an item of the SKU, after waiting for the transactions writing order items (a
-- SHARE lock on OrderItem), so an item inserted meanwhile is either seen or sees the new value.
CREATE FUNCTION "fulfillment_refresh_needs_pharmacy"(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "Fulfillment" WHERE "id" = ANY (ids) ORDER BY "id" FOR NO KEY UPDATE;
  -- Written only where it differs from its sources; the flag is never null, so flipping it sets it to them.
  -- One table, found by key: a join of the fulfillments to themselves was planned (generic plan) as a scan of all of them.
  UPDATE "Fulfillment" x SET "needsPharmacy" = NOT x."needsPharmacy"
   WHERE x."id" = ANY (ids)
     AND x."needsPharmacy" IS DISTINCT FROM (
           x."status" <> 'CANCELLED'
           AND NOT EXISTS (SELECT 1 FROM "PharmacyOrder" po WHERE po."activeFulfillmentId" = x."id")
           AND EXISTS (SELECT 1 FROM "OrderItem" i JOIN "Sku" s ON s."id" = i."skuId"
                        WHERE i."fulfillmentId" = x."id" AND i."status" <> 'CANCELLED' AND NOT s."skipForPharmacyOrders"));
END
$$;
-- Inserted or deleted rows of OrderItem or PharmacyOrder, a statement at a time (transition table "changed").
CREATE FUNCTION "fulfillment_needs_pharmacy_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "fulfillment_refresh_needs_pharmacy"(ARRAY(SELECT DISTINCT "fulfillmentId" FROM changed));
  RETURN NULL;
END
$$;
CREATE TRIGGER "OrderItem_needs_pharmacy_insert" AFTER INSERT ON "OrderItem"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "fulfillment_needs_pharmacy_rows_changed"();
CREATE TRIGGER "OrderItem_needs_pharmacy_delete" AFTER DELETE ON "OrderItem"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "fulfillment_needs_pharmacy_rows_changed"();
CREATE TRIGGER "PharmacyOrder_needs_pharmacy_insert" AFTER INSERT ON "PharmacyOrder"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "fulfillment_needs_pharmacy_rows_changed"();
CREATE TRIGGER "PharmacyOrder_needs_pharmacy_delete" AFTER DELETE ON "PharmacyOrder"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "fulfillment_needs_pharmacy_rows_changed"();
-- An updated row of OrderItem or PharmacyOrder (its fulfillment before and after), or of Fulfillment, at commit.
CREATE FUNCTION "fulfillment_needs_pharmacy_row_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'Fulfillment' THEN
    PERFORM "fulfillment_refresh_needs_pharmacy"(ARRAY[NEW."id"]);
  ELSE
    PERFORM "fulfillment_refresh_needs_pharmacy"(ARRAY[OLD."fulfillmentId", NEW."fulfillmentId"]);
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER "OrderItem_needs_pharmacy_update" AFTER UPDATE OF "status", "skuId", "fulfillmentId" ON "OrderItem"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."skuId" IS DISTINCT FROM NEW."skuId" OR OLD."fulfillmentId" IS DISTINCT FROM NEW."fulfillmentId")
  EXECUTE FUNCTION "fulfillment_needs_pharmacy_row_updated"();
CREATE CONSTRAINT TRIGGER "PharmacyOrder_needs_pharmacy_update" AFTER UPDATE OF "activeFulfillmentId", "fulfillmentId" ON "PharmacyOrder"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."activeFulfillmentId" IS DISTINCT FROM NEW."activeFulfillmentId" OR OLD."fulfillmentId" IS DISTINCT FROM NEW."fulfillmentId")
  EXECUTE FUNCTION "fulfillment_needs_pharmacy_row_updated"();
CREATE CONSTRAINT TRIGGER "Fulfillment_needs_pharmacy_update" AFTER UPDATE OF "status" ON "Fulfillment"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "fulfillment_needs_pharmacy_row_updated"();
CREATE FUNCTION "fulfillment_needs_pharmacy_sku_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "OrderItem" IN SHARE MODE;
  PERFORM "fulfillment_refresh_needs_pharmacy"(ARRAY(SELECT DISTINCT "fulfillmentId" FROM "OrderItem" WHERE "skuId" = NEW."id"));
  RETURN NULL;
END
$$;
CREATE TRIGGER "Sku_needs_pharmacy_skip" AFTER UPDATE OF "skipForPharmacyOrders" ON "Sku"
  FOR EACH ROW WHEN (OLD."skipForPharmacyOrders" IS DISTINCT FROM NEW."skipForPharmacyOrders")
  EXECUTE FUNCTION "fulfillment_needs_pharmacy_sku_changed"();
UPDATE "Fulfillment" x SET "needsPharmacy" = true
 WHERE x."status" <> 'CANCELLED'
   AND NOT EXISTS (SELECT 1 FROM "PharmacyOrder" po WHERE po."activeFulfillmentId" = x."id")
   AND EXISTS (SELECT 1 FROM "OrderItem" i JOIN "Sku" s ON s."id" = i."skuId"
                WHERE i."fulfillmentId" = x."id" AND i."status" <> 'CANCELLED' AND NOT s."skipForPharmacyOrders");
CREATE INDEX "Fulfillment_needsPharmacy_orderId_idx" ON "Fulfillment" ("orderId") WHERE "needsPharmacy";

-- Hand-written: the admin home's failed deliveries of the last days, read from the failed ones only.
CREATE INDEX "WebhookDelivery_failed_organisationId_createdAt_idx" ON "WebhookDelivery" ("organisationId", "createdAt") WHERE "state" = 'FAILED';
