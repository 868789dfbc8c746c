/**
 * Pharmacy portal, Settings → API keys: External Pharmacy API keys of the pharmacist's pharmacy (or
 * group), created with a chosen set of permissions and shown once, listed, revoked.
 */
import {
  createPharmacyApiKey,
  listPharmacyApiKeys,
  pharmacyGroupInReach,
  revokePharmacyApiKey,
} from "@/server/domain/api-keys/pharmacy-keys";
import { pharmacyProcedure, router } from "@/server/trpc/init";
import { presentApiKey } from "./api-keys.presenters";
import { createApiKeyInput, revokeApiKeyInput } from "./api-keys.schemas";

export const apiKeysRouter = router({
  list: pharmacyProcedure.query(async ({ ctx }) => (await listPharmacyApiKeys(ctx.scope.reach)).map(presentApiKey)),

  /** What a new key may be scoped to: the pharmacist's group (group pharmacists) and pharmacies. */
  scopes: pharmacyProcedure.query(async ({ ctx }) => {
    const [group, pharmacies] = [await pharmacyGroupInReach(ctx.scope.reach), ctx.scope.pharmacies];
    return {
      group: group ? { uid: group.id, displayName: group.displayName } : null,
      pharmacies: pharmacies.map((p) => ({ uid: p.id, displayName: p.displayName })),
    };
  }),

  /** The plaintext key is in this response only. */
  create: pharmacyProcedure.input(createApiKeyInput).mutation(async ({ ctx, input }) => {
    const { key, plaintext } = await createPharmacyApiKey(ctx.scope.reach, {
      displayName: input.displayName,
      permissions: input.permissions,
      pharmacyId: input.pharmacyUid ?? null,
      groupWide: input.groupWide,
      createdById: ctx.user.id,
    });
    return { ...presentApiKey(key), apiKey: plaintext };
  }),

  revoke: pharmacyProcedure.input(revokeApiKeyInput).mutation(async ({ ctx, input }) => {
    await revokePharmacyApiKey(ctx.scope.reach, input.keyUid, { type: "USER", userId: ctx.user.id });
    return { revoked: true };
  }),
});
