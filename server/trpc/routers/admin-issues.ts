/**
 * The admin tool, Issue threads: the organisation's threads (opened by on-hold comments and
 * clarification requests), one thread with the replies of both sides, the admin's reply, and
 * resolving (which by default returns the pharmacy order to its status before the hold:
 * resolveIssueThread). Another organisation's thread is NOT_FOUND.
 */
import { getIssueThread, listIssueThreads } from "@/server/domain/pharmacy-orders/issue-thread-queries";
import { replyToIssueThread } from "@/server/domain/pharmacy-orders/issue-thread-replies";
import { resolveIssueThread } from "@/server/domain/pharmacy-orders/resolve-issue-thread";
import { adminProcedure, router } from "@/server/trpc/init";
import { presentThread, presentThreadRow } from "./admin-issues.presenters";
import { issueThreadInput, listIssueThreadsInput, replyInput, resolveInput } from "./admin-issues.schemas";

export const adminIssuesRouter = router({
  list: adminProcedure.input(listIssueThreadsInput).query(async ({ ctx, input }) => {
    const { items, total } = await listIssueThreads(
      ctx.scope.organisationId,
      { status: input.status === "open" ? "OPEN" : "RESOLVED" },
      { page: input.page, limit: input.limit },
    );
    return { items: items.map(presentThreadRow), total, page: input.page, limit: input.limit, totalPages: Math.ceil(total / input.limit) };
  }),

  get: adminProcedure.input(issueThreadInput).query(async ({ ctx, input }) => presentThread(await getIssueThread(ctx.scope.organisationId, input.uid))),

  reply: adminProcedure.input(replyInput).mutation(async ({ ctx, input }) => {
    const { messageId } = await replyToIssueThread(
      { organisationId: ctx.scope.organisationId },
      input.uid,
      { body: input.body, side: "ADMIN" },
      { type: "USER", userId: ctx.user.id },
    );
    return { messageUid: messageId };
  }),

  resolve: adminProcedure.input(resolveInput).mutation(async ({ ctx, input }) =>
    resolveIssueThread(ctx.scope.organisationId, input.uid, { note: input.note, releaseOrder: input.releaseOrder }, { type: "USER", userId: ctx.user.id }),
  ),
});
