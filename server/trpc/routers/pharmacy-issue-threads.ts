/**
 * The pharmacy portal's side of issue threads: on an order's page, its threads with the replies of
 * both sides, and the pharmacist's reply. Scoped like the other pharmacy order procedures: an order
 * of a pharmacy the pharmacist does not work for is NOT_FOUND.
 */
import { listIssueThreadsOfPharmacyOrder } from "@/server/domain/pharmacy-orders/issue-thread-queries";
import { replyToIssueThread } from "@/server/domain/pharmacy-orders/issue-thread-replies";
import { pharmacyProcedure, router } from "@/server/trpc/init";
import { presentThread } from "./admin-issues.presenters";
import { pharmacyOrderThreadsInput, replyInput } from "./admin-issues.schemas";

export const pharmacyIssueThreadsRouter = router({
  listForOrder: pharmacyProcedure.input(pharmacyOrderThreadsInput).query(async ({ ctx, input }) => {
    const pharmacyIds = ctx.scope.pharmacyIds();
    return (await listIssueThreadsOfPharmacyOrder({ pharmacyIds }, input.pharmacyOrderUid)).map(presentThread);
  }),

  reply: pharmacyProcedure.input(replyInput).mutation(async ({ ctx, input }) => {
    const pharmacyIds = ctx.scope.pharmacyIds();
    const { messageId } = await replyToIssueThread({ pharmacyIds }, input.uid, { body: input.body, side: "PHARMACY" }, { type: "USER", userId: ctx.user.id });
    return { messageUid: messageId };
  }),
});
