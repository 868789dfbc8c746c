/**
 * The admin tool's qualified trust service (docs/decisions/prescriptions.md#remote-qualified-signatures): the
 * organisation's connection to a CSC API v2 service (client secret shown by its hint only), Test
 * connection, and removal. Always the admin's organisation. Each doctor links their own credential
 * in the doctors' workspace (doctor.signing).
 */
import { wordIn } from "@/i18n/error-text";
import {
  getTrustServiceSettings,
  removeTrustServiceConnection,
  saveTrustServiceConnection,
  testTrustServiceConnection,
  type TrustServiceSettings,
} from "@/server/domain/trust-service/connection";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { saveTrustServiceInput } from "./admin-trust-service.schemas";

const user = (ctx: { user: { id: string } }) => ({ type: "USER" as const, userId: ctx.user.id });

const presentConnection = (c: TrustServiceSettings | null) =>
  c && { displayName: c.displayName, baseUrl: c.baseUrl, tokenUrl: c.tokenUrl, clientId: c.clientId, clientSecretHint: c.clientSecretHint, updatedAt: unix(c.updatedAt) };

export const adminTrustServiceRouter = router({
  settings: adminProcedure.query(async ({ ctx }) => {
    const settings = await getTrustServiceSettings(ctx.scope.organisationId);
    return { connection: presentConnection(settings.connection), linkedDoctors: settings.linkedDoctors };
  }),
  save: adminProcedure
    .input(saveTrustServiceInput)
    .mutation(async ({ ctx, input }) => presentConnection(await saveTrustServiceConnection(ctx.scope.organisationId, user(ctx), input))),
  remove: adminProcedure.mutation(async ({ ctx }) => {
    await removeTrustServiceConnection(ctx.scope.organisationId, user(ctx));
    return { removed: true };
  }),
  testConnection: adminProcedure.mutation(async ({ ctx }) => {
    const result = await testTrustServiceConnection(ctx.scope.organisationId);
    return { ok: result.ok, message: wordIn(ctx.locale)(result.message) };
  }),
});
