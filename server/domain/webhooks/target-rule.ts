import { errorText, type ErrorText } from "@/i18n/error-text";
import { config } from "@/server/config";
import { checkOutgoingTarget } from "@/server/http/target-guard";

/**
 * What a webhook target must be: a guarded outgoing target (target-guard.ts) over https, since
 * deliveries carry patients' names, dates of birth and prescription PDFs. Plain http is for
 * development only, where WEBHOOK_ALLOW_PRIVATE_TARGETS is on. docs/decisions/webhooks.md#webhook-subscriptions (http or https).
 */
export async function webhookTargetProblem(target: string): Promise<ErrorText | null> {
  const problem = await checkOutgoingTarget(target);
  if (problem) return problem;
  if (isPlainHttp(target) && !config().WEBHOOK_ALLOW_PRIVATE_TARGETS) return errorText("targets.httpsRequired");
  return null;
}

/** A target registered before https was required (or in development): still delivered to, and flagged in the portals. */
export const isPlainHttp = (target: string) => /^http:/i.test(target);
