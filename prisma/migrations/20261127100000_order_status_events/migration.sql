-- Hand-written: order_updated (docs/decisions/webhooks.md#order-and-prescription-events). Every write of an
-- order's status (intake's release of a hold, the doctor's decisions, the pharmacy orders' follow-up,
-- cancellations) records the event in its own transaction, here in one place that no new writer can
-- forget. Several changes of one order in one transaction (a released hold passes "started" on its
-- way to "waiting for pharmacy") make one event, from the status before the transaction to the last
-- one; changes that end where they began make none. The transaction's own event is found by its
-- xmin (rows this transaction wrote carry its id), among the few undispatched order_updated rows.
CREATE INDEX "OutboxEvent_pending_order_updated_idx" ON "OutboxEvent" ("subjectId")
  WHERE "dispatchedAt" IS NULL AND "eventType" = 'order_updated';

CREATE FUNCTION "order_status_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pending_id text;
  pending_from text;
BEGIN
  SELECT e."id", e."data"->>'from_status' INTO pending_id, pending_from
    FROM "OutboxEvent" e
   WHERE e."subjectId" = NEW."id" AND e."dispatchedAt" IS NULL AND e."eventType" = 'order_updated'
     AND e.xmin = (txid_current() % 4294967296)::text::xid
   LIMIT 1;
  IF pending_id IS NULL THEN
    INSERT INTO "OutboxEvent" ("id", "eventType", "organisationId", "pharmacyId", "subjectId", "data", "createdAt")
    VALUES (gen_random_uuid()::text, 'order_updated', NEW."organisationId", NULL, NEW."id",
            jsonb_build_object('from_status', OLD."status", 'to_status', NEW."status"), clock_timestamp());
  ELSIF pending_from = NEW."status" THEN
    DELETE FROM "OutboxEvent" WHERE "id" = pending_id;
  ELSE
    UPDATE "OutboxEvent" SET "data" = jsonb_set("data", '{to_status}', to_jsonb(NEW."status")) WHERE "id" = pending_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Order_status_event" AFTER UPDATE OF "status" ON "Order"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "order_status_event"();
