/**
 * Pharmacy portal, API Access → Webhooks: the same subscriptions as the External Pharmacy API's
 * webhooks/ endpoints, through the same domain functions. Tests sent from the portal are unsigned
 * (spec, Events → Signature, item 5).
 */
import { z } from "zod";
import { PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import {
  deletePharmacySubscription,
  listPharmacySubscriptions,
  registerPharmacySubscription,
  type Subscription,
} from "@/server/domain/webhooks/subscriptions";
import { sendTestDelivery } from "@/server/domain/webhooks/test-delivery";
import { NotFoundError } from "@/server/domain/errors";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { pharmacyIdsFor, pharmacyUidInput } from "@/server/trpc/pharmacy-scope";

const present = (s: Subscription) => ({
  uid: s.id,
  notificationType: s.notificationType,
  target: s.target,
  pharmacyUid: s.pharmacyId,
  headerKey: s.headerKey,
  createdAt: Math.floor(s.createdAt.getTime() / 1000),
});

const target = z.string().trim().min(1).max(2048);
const notificationType = z.enum(PHARMACY_EVENT_TYPES);

/** One pharmacy for writes: a group pharmacist must pick it; reads may span all of the user's pharmacies. */
async function onePharmacy(ctx: Parameters<typeof pharmacyIdsFor>[0], pharmacyUid: string | undefined): Promise<string> {
  const ids = await pharmacyIdsFor(ctx, pharmacyUid);
  if (ids.length !== 1) throw new NotFoundError();
  return ids[0];
}

export const webhookSubscriptionsRouter = router({
  list: pharmacistProcedure.input(z.object({ pharmacyUid: pharmacyUidInput })).query(async ({ ctx, input }) => {
    const ids = await pharmacyIdsFor(ctx, input.pharmacyUid);
    const lists = await Promise.all(ids.map((id) => listPharmacySubscriptions(ctx.db, id)));
    return lists.flat().map(present);
  }),
  /** Registers (or re-registers: new secret, same uid); the secret is in this response only. */
  register: pharmacistProcedure
    .input(
      z.object({
        pharmacyUid: pharmacyUidInput,
        notificationType,
        target,
        headerKey: z.string().max(200).nullish(),
        headerValue: z.string().max(2000).nullish(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const pharmacyId = await onePharmacy(ctx, input.pharmacyUid);
      const { subscription, secret } = await registerPharmacySubscription(ctx.db, {
        organisationId: ctx.user.organisationId,
        pharmacyId,
        notificationType: input.notificationType,
        target: input.target,
        headerKey: input.headerKey,
        headerValue: input.headerValue,
      });
      return { ...present(subscription), webhookSecret: secret };
    }),
  delete: pharmacistProcedure
    .input(z.object({ pharmacyUid: pharmacyUidInput, subscriptionUid: z.string().trim().min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const ids = await pharmacyIdsFor(ctx, input.pharmacyUid);
      for (const id of ids) {
        try {
          await deletePharmacySubscription(ctx.db, id, input.subscriptionUid);
          return { deleted: true };
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      throw new NotFoundError();
    }),
  /** Sends a sample of the event type now, unsigned, with X-Webhook-Test: true; reports the receiver's answer. */
  sendTest: pharmacistProcedure
    .input(z.object({ pharmacyUid: pharmacyUidInput, notificationType, target }))
    .mutation(async ({ ctx, input }) => {
      const pharmacyId = await onePharmacy(ctx, input.pharmacyUid);
      return sendTestDelivery(ctx.db, {
        organisationId: ctx.user.organisationId,
        pharmacyId,
        notificationType: input.notificationType,
        target: input.target,
        sign: false,
      });
    }),
});
