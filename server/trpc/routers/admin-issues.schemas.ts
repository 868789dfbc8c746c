/** Inputs of the issue-thread procedures (admin tool and the pharmacy portal's order page). */
import { z } from "zod";
import { uid } from "@/server/wire/schemas";

export const ISSUE_THREAD_PAGE_LIMIT = 100;

export const listIssueThreadsInput = z.object({
  status: z.enum(["open", "resolved"]).default("open"),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(ISSUE_THREAD_PAGE_LIMIT).default(50),
});

export const issueThreadInput = z.object({ uid: uid() });

/** A reply: the domain trims it and refuses blank or longer than 5000 characters (field `body`). */
export const replyInput = z.object({ uid: uid(), body: z.string().max(5000) });

export const resolveInput = z.object({
  uid: uid(),
  note: z.string().max(5000).nullish(),
  /** Move the pharmacy order back out of on-hold, to the status it had before (the default). */
  releaseOrder: z.boolean().default(true),
});

export const pharmacyOrderThreadsInput = z.object({ pharmacyOrderUid: uid() });
