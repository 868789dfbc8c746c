/**
 * Webhook subscriptions, one implementation mounted under both portals (pharmacy.webhooks,
 * admin.webhooks), through the same domain functions as the REST doors' (the External Pharmacy
 * API's webhooks/, the Management API's notification-subscriptions): register (the secret in the
 * response only), list, delete, the targets' health and a test send. Which subscriptions is the
 * door's scope: the organisation-level ones for an admin, those of the pharmacies in reach (or of
 * the chosen one) for a pharmacist. A test send is of one subscription, with X-Webhook-Test: true;
 * the pharmacy portal's are unsigned (spec, Events → Signature, item 5), the admin tool's are signed
 * with the subscription's secret, as the Management API's test of a matching subscription is.
 */
import { sampleBody } from "@/server/api/webhooks/samples";
import { NotFoundError } from "@/server/domain/errors";
import {
  deleteOrganisationSubscription,
  deletePharmacySubscription,
  listOrganisationSubscriptions,
  listPharmacySubscriptions,
  registerOrganisationSubscription,
  registerPharmacySubscription,
} from "@/server/domain/webhooks/subscriptions";
import { organisationTargetHealth, pharmacyTargetHealth } from "@/server/domain/webhooks/target-health";
import { sendTestDelivery } from "@/server/domain/webhooks/test-delivery";
import { router, type PortalProcedure, type PortalScope } from "@/server/trpc/init";
import {
  deleteSubscriptionInput,
  listSubscriptionsInput,
  registerSubscriptionInput,
  sendTestInput,
  subscriptionHealthInput,
} from "./webhook-subscriptions.schemas";
import { presentSubscription, presentTargetHealth } from "./webhook-subscriptions.presenters";

/** The live subscriptions of the scope (pharmacyUid narrows a pharmacist's; an admin's are the organisation's own). */
async function subscriptionsOf(scope: PortalScope, pharmacyUid: string | undefined) {
  if (scope.door === "admin") return listOrganisationSubscriptions(scope.organisationId);
  return (await Promise.all(scope.pharmacyIds(pharmacyUid).map((id) => listPharmacySubscriptions(id)))).flat();
}

/** The targets' health of the scope's subscriptions, failing ones first. */
const healthOf = (scope: PortalScope, pharmacyUid: string | undefined) =>
  scope.door === "admin" ? organisationTargetHealth(scope.organisationId) : pharmacyTargetHealth(scope.pharmacyIds(pharmacyUid));

/** One live subscription of the scope; outside it: NOT_FOUND, as one that does not exist. */
async function subscriptionOf(scope: PortalScope, pharmacyUid: string | undefined, subscriptionUid: string) {
  const subscription = (await subscriptionsOf(scope, pharmacyUid)).find((s) => s.id === subscriptionUid);
  if (!subscription) throw new NotFoundError();
  return subscription;
}

export const webhooksRouter = (procedure: PortalProcedure) =>
  router({
    list: procedure.input(listSubscriptionsInput).query(async ({ ctx, input }) => (await subscriptionsOf(ctx.scope, input.pharmacyUid)).map(presentSubscription)),

    /**
     * Whether each target keeps failing (targetHealthState: enough failed attempts and no success for
     * an hour), with what was measured, failing ones first; one subscription's when named (outside the scope: NOT_FOUND).
     */
    health: procedure.input(subscriptionHealthInput).query(async ({ ctx, input }) => {
      const all = await healthOf(ctx.scope, input.pharmacyUid);
      if (input.subscriptionUid === undefined) return all.map(presentTargetHealth);
      const one = all.filter((h) => h.subscriptionId === input.subscriptionUid);
      if (one.length === 0) throw new NotFoundError();
      return one.map(presentTargetHealth);
    }),

    /** Registers (or re-registers: new secret, same uid); the secret is in this response only. */
    register: procedure.input(registerSubscriptionInput).mutation(async ({ ctx, input }) => {
      // A new subscription is the organisation's (an admin's), or one pharmacy's (a group pharmacist must pick it).
      const pharmacyId = ctx.scope.door === "pharmacy" ? ctx.scope.pharmacy(input.pharmacyUid).id : null;
      const registration = {
        organisationId: ctx.scope.organisationId,
        notificationType: input.notificationType,
        target: input.target,
        headerKey: input.headerKey,
        headerValue: input.headerValue,
        actor: { type: "USER", userId: ctx.user.id } as const,
      };
      const { subscription, secret } = pharmacyId
        ? await registerPharmacySubscription({ ...registration, pharmacyId })
        : await registerOrganisationSubscription(registration);
      return { ...presentSubscription(subscription), webhookSecret: secret };
    }),

    delete: procedure.input(deleteSubscriptionInput).mutation(async ({ ctx, input }) => {
      const subscription = await subscriptionOf(ctx.scope, input.pharmacyUid, input.subscriptionUid);
      const actor = { type: "USER", userId: ctx.user.id } as const;
      if (subscription.pharmacyId) await deletePharmacySubscription(subscription.pharmacyId, subscription.id, actor);
      else await deleteOrganisationSubscription(ctx.scope.organisationId, subscription.id, actor);
      return { deleted: true };
    }),

    /** Sends a sample of the subscription's event type to its target now, with X-Webhook-Test: true; reports the receiver's answer. */
    sendTest: procedure.input(sendTestInput).mutation(async ({ ctx, input }) => {
      const subscription = await subscriptionOf(ctx.scope, input.pharmacyUid, input.subscriptionUid);
      return sendTestDelivery({
        organisationId: ctx.scope.organisationId,
        pharmacyId: subscription.pharmacyId,
        notificationType: subscription.notificationType,
        target: subscription.target,
        sign: ctx.scope.door === "admin",
        sampleBody,
      });
    }),
  });
