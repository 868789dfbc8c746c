import { database } from "@/server/db/client";
import { DELETE_DRAFT_TASK, legacyIdOfDraftGid } from "./draft-orders";
import { PUSH_TRACKING_TASK } from "./push-tracking";

/** What a Shopify task was doing: sending a pharmacy order's tracking link, or deleting a draft order of ours. */
export type ShopifyTaskKind = "tracking" | "draft_deletion";

export type ShopifyTaskProblem = {
  taskId: string;
  shopId: string;
  kind: ShopifyTaskKind;
  /** The pharmacy order's name (tracking), or the Shopify draft's legacy id (draft deletion). */
  subject: string;
  state: "PENDING" | "FAILED";
  attempts: number;
  lastError: string;
  nextAttemptAt: Date | null;
};

/**
 * The organisation's Shopify background tasks that failed at least once and are not done (retrying,
 * or given up), newest first, for the admin tool's Shops page: "visible when it keeps failing".
 */
export async function listShopifyTaskProblems(organisationId: string): Promise<ShopifyTaskProblem[]> {
  const db = await database();
  const rows = await db.$queryRaw<(Omit<ShopifyTaskProblem, "kind" | "subject"> & { name: string; pharmacyOrderName: string | null; draftGid: string | null })[]>`
    SELECT t."id" AS "taskId", s."id" AS "shopId", t."name", po."name" AS "pharmacyOrderName", t."payload"->>'shopifyDraftOrderGid' AS "draftGid",
           t."state", t."attempts", t."lastError",
           CASE WHEN t."state" = 'PENDING' THEN t."nextAttemptAt" END AS "nextAttemptAt"
      FROM "BackgroundTask" t
      JOIN "Shop" s ON s."id" = t."payload"->>'shopId'
      LEFT JOIN "PharmacyOrder" po ON t."name" = ${PUSH_TRACKING_TASK} AND po."id" = t."payload"->>'pharmacyOrderId'
     WHERE t."name" IN (${PUSH_TRACKING_TASK}, ${DELETE_DRAFT_TASK}) AND t."state" IN ('PENDING', 'FAILED') AND t."lastError" IS NOT NULL
       AND s."organisationId" = ${organisationId}
     ORDER BY t."createdAt" DESC
     LIMIT 100`;
  return rows.map(({ name, pharmacyOrderName, draftGid, ...row }) => ({
    ...row,
    kind: name === PUSH_TRACKING_TASK ? "tracking" : "draft_deletion",
    subject: name === PUSH_TRACKING_TASK ? (pharmacyOrderName ?? "") : legacyIdOfDraftGid(draftGid ?? ""),
  }));
}
