/**
 * The admin tool's payment provider for split payouts (docs/decisions/payouts.md#split-payouts):
 * the organisation's Mollie connection (endpoint, API key shown masked, Test connection), each
 * pharmacy's Mollie organization id, and the Retry of a payout whose route failed. Always the
 * admin's organisation; another organisation's pharmacy or payout is not found.
 */
import { retryPayoutRoute } from "@/server/domain/payouts/create-route";
import {
  getPaymentConnectionSettings,
  removePaymentConnection,
  savePaymentConnection,
  setPharmacyMollieOrganization,
  testPaymentConnection,
  type PaymentConnectionSettings,
} from "@/server/domain/payouts/payment-connection";
import { MOLLIE_API_ENDPOINT } from "@/server/domain/payouts/mollie-api";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { payoutUidInput, savePaymentConnectionInput, setPharmacyOrganizationInput } from "./admin-payment-provider.schemas";

const user = (ctx: { user: { id: string } }) => ({ type: "USER" as const, userId: ctx.user.id });

const presentConnection = (connection: PaymentConnectionSettings["connection"]) =>
  connection && { provider: connection.provider, apiEndpoint: connection.apiEndpoint, apiKeyHint: connection.apiKeyHint, updatedAt: unix(connection.updatedAt) };

export const adminPaymentProviderRouter = router({
  settings: adminProcedure.query(async ({ ctx }) => {
    const settings = await getPaymentConnectionSettings(ctx.scope.organisationId);
    return {
      defaultApiEndpoint: MOLLIE_API_ENDPOINT,
      connection: presentConnection(settings.connection),
      pharmacies: settings.pharmacies.map((p) => ({ uid: p.id, displayName: p.displayName, mollieOrganizationId: p.mollieOrganizationId })),
    };
  }),
  save: adminProcedure
    .input(savePaymentConnectionInput)
    .mutation(async ({ ctx, input }) => presentConnection(await savePaymentConnection(ctx.scope.organisationId, user(ctx), input))),
  remove: adminProcedure.mutation(async ({ ctx }) => {
    await removePaymentConnection(ctx.scope.organisationId, user(ctx));
    return { removed: true };
  }),
  testConnection: adminProcedure.mutation(async ({ ctx }) => testPaymentConnection(ctx.scope.organisationId)),
  setPharmacyOrganization: adminProcedure.input(setPharmacyOrganizationInput).mutation(async ({ ctx, input }) => ({
    mollieOrganizationId: await setPharmacyMollieOrganization(ctx.scope.organisationId, user(ctx), input.pharmacyUid, input.mollieOrganizationId),
  })),
  retryRoute: adminProcedure.input(payoutUidInput).mutation(async ({ ctx, input }) => {
    await retryPayoutRoute(ctx.scope.organisationId, user(ctx), input.payoutUid);
    return { retried: true };
  }),
});
