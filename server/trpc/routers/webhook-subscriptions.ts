/**
 * Pharmacy portal, API Access → Webhooks: the same subscriptions as the External Pharmacy API's
 * webhooks/ endpoints, through the same domain functions. Tests sent from the portal are unsigned
 * (spec, Events → Signature, item 5).
 */
import { deletePharmacySubscription, listPharmacySubscriptions, registerPharmacySubscription } from "@/server/domain/webhooks/subscriptions";
import { sendTestDelivery } from "@/server/domain/webhooks/test-delivery";
import { pharmacyTargetHealth } from "@/server/domain/webhooks/target-health";
import { sampleBody } from "@/server/api/webhooks/samples";
import { NotFoundError } from "@/server/domain/errors";
import { pharmacyToActFor, resolvePharmacyScope, type PharmacyReach } from "@/server/domain/pharmacies/pharmacy-scope";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import {
  deleteSubscriptionInput,
  listSubscriptionsInput,
  registerSubscriptionInput,
  sendTestInput,
  subscriptionHealthInput,
} from "./webhook-subscriptions.schemas";
import { presentSubscription as present, presentTargetHealth as presentHealth } from "./webhook-subscriptions.presenters";

/** One pharmacy for writes: a group pharmacist must pick it; reads may span all of the user's pharmacies. */
async function onePharmacy(user: PharmacyReach, requested: string | undefined): Promise<string> {
  const pharmacy = await pharmacyToActFor(user, requested ?? null);
  if (!pharmacy) throw new NotFoundError();
  return pharmacy.id;
}

export const webhookSubscriptionsRouter = router({
  list: pharmacistProcedure.input(listSubscriptionsInput).query(async ({ ctx, input }) => {
    const ids = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
    const lists = await Promise.all(ids.map((id) => listPharmacySubscriptions(id)));
    return lists.flat().map(present);
  }),
  /**
   * Whether each target keeps failing (targetHealthState: enough failed attempts and no success for
   * an hour), with what was measured, failing ones first. Only the user's pharmacies; another pharmacy's subscription is NOT_FOUND.
   */
  health: pharmacistProcedure.input(subscriptionHealthInput).query(async ({ ctx, input }) => {
    const ids = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
    const all = await pharmacyTargetHealth(ids);
    if (input.subscriptionUid === undefined) return all.map(presentHealth);
    const one = all.filter((h) => h.subscriptionId === input.subscriptionUid);
    if (one.length === 0) throw new NotFoundError();
    return one.map(presentHealth);
  }),
  /** Registers (or re-registers: new secret, same uid); the secret is in this response only. */
  register: pharmacistProcedure
    .input(registerSubscriptionInput)
    .mutation(async ({ ctx, input }) => {
      const pharmacyId = await onePharmacy(ctx.user, input.pharmacyUid);
      const { subscription, secret } = await registerPharmacySubscription({
        organisationId: ctx.user.organisationId,
        pharmacyId,
        notificationType: input.notificationType,
        target: input.target,
        headerKey: input.headerKey,
        headerValue: input.headerValue,
        actor: { type: "USER", userId: ctx.user.id },
      });
      return { ...present(subscription), webhookSecret: secret };
    }),
  delete: pharmacistProcedure
    .input(deleteSubscriptionInput)
    .mutation(async ({ ctx, input }) => {
      const ids = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
      for (const id of ids) {
        try {
          await deletePharmacySubscription(id, input.subscriptionUid, { type: "USER", userId: ctx.user.id });
          return { deleted: true };
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      throw new NotFoundError();
    }),
  /** Sends a sample of the event type now, unsigned, with X-Webhook-Test: true; reports the receiver's answer. */
  sendTest: pharmacistProcedure
    .input(sendTestInput)
    .mutation(async ({ ctx, input }) => {
      const pharmacyId = await onePharmacy(ctx.user, input.pharmacyUid);
      return sendTestDelivery({
        organisationId: ctx.user.organisationId,
        pharmacyId,
        notificationType: input.notificationType,
        target: input.target,
        sign: false,
        sampleBody,
      });
    }),
});
