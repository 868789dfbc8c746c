/**
 * The admin tool's settings: patient profile fields, each pharmacy's hidden SKU type, patient token
 * secrets, wallet pass templates and the prescription documents' language, over the domain functions the APIs read them with. Always the
 * admin's organisation; another organisation's uid is not found.
 */
import { changePharmacyHiddenSkuType, listPharmacyHiddenSkuTypes } from "@/server/domain/pharmacies/hidden-sku-type";
import { changePrescriptionLanguage, prescriptionLanguageSetting } from "@/server/domain/prescriptions/prescription-language";
import { createPatientTokenSecret, listPatientTokenSecrets, revokePatientTokenSecret } from "@/server/domain/patient-tokens/secrets";
import {
  addProfileFieldDefinition,
  changeProfileFieldDefinition,
  listProfileFieldDefinitions,
  PATIENT_FIELD_SOURCES,
  PATIENT_FIELD_TYPES,
  removeProfileFieldDefinition,
} from "@/server/domain/patients/profile-fields";
import {
  changeWalletPassTemplate,
  createWalletPassTemplate,
  deleteWalletPassTemplate,
  listOrganisationWalletPassTemplates,
  listTemplateShops,
} from "@/server/domain/wallet-passes/templates";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix, unixOrNull } from "@/server/wire/format";
import {
  addProfileFieldInput,
  changeHiddenSkuTypeInput,
  changePrescriptionLanguageInput,
  changeProfileFieldInput,
  changeWalletPassTemplateInput,
  createTokenSecretInput,
  createWalletPassTemplateInput,
  profileFieldUidInput,
  tokenSecretUidInput,
  walletPassTemplateUidInput,
} from "./admin-settings.schemas";

const user = (ctx: { user: { id: string } }) => ({ type: "USER" as const, userId: ctx.user.id });

const profileFields = router({
  list: adminProcedure.query(async ({ ctx }) => ({
    fields: (await listProfileFieldDefinitions(ctx.scope.organisationId)).map((f) => ({
      uid: f.id,
      key: f.key,
      displayName: f.displayName,
      type: f.type,
      source: f.source,
      valueCount: f.valueCount,
    })),
    types: [...PATIENT_FIELD_TYPES],
    sources: [...PATIENT_FIELD_SOURCES],
  })),
  add: adminProcedure
    .input(addProfileFieldInput)
    .mutation(async ({ ctx, input }) => ({ uid: (await addProfileFieldDefinition(ctx.scope.organisationId, ctx.user.id, input)).id })),
  change: adminProcedure.input(changeProfileFieldInput).mutation(async ({ ctx, input: { fieldUid, ...change } }) => {
    await changeProfileFieldDefinition(ctx.scope.organisationId, ctx.user.id, fieldUid, change);
    return { saved: true };
  }),
  remove: adminProcedure
    .input(profileFieldUidInput)
    .mutation(async ({ ctx, input }) => removeProfileFieldDefinition(ctx.scope.organisationId, ctx.user.id, input.fieldUid)),
});

const hiddenSkuTypes = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listPharmacyHiddenSkuTypes(ctx.scope.organisationId)).map((p) => ({ uid: p.id, displayName: p.displayName, hiddenSkuType: p.hiddenSkuType })),
  ),
  change: adminProcedure.input(changeHiddenSkuTypeInput).mutation(async ({ ctx, input }) => {
    await changePharmacyHiddenSkuType(ctx.scope.organisationId, ctx.user.id, input.pharmacyUid, input.hiddenSkuType);
    return { hiddenSkuType: input.hiddenSkuType };
  }),
});

const patientTokenSecrets = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listPatientTokenSecrets(ctx.scope.organisationId)).map((s) => ({
      uid: s.id,
      displayName: s.displayName,
      audience: s.audience,
      createdAt: unix(s.createdAt),
      lastUsedAt: unixOrNull(s.lastUsedAt),
      revokedAt: unixOrNull(s.revokedAt),
    })),
  ),
  /** The plaintext secret is in this response only. */
  create: adminProcedure.input(createTokenSecretInput).mutation(async ({ ctx, input }) => {
    const created = await createPatientTokenSecret({ organisationId: ctx.scope.organisationId, ...input, createdById: ctx.user.id });
    return { uid: created.id, displayName: created.displayName, audience: created.audience, secret: created.secret };
  }),
  revoke: adminProcedure.input(tokenSecretUidInput).mutation(async ({ ctx, input }) => {
    await revokePatientTokenSecret(ctx.scope.organisationId, input.secretUid, user(ctx));
    return { revoked: true };
  }),
});

const walletPassTemplates = router({
  list: adminProcedure.query(async ({ ctx }) => ({
    templates: (await listOrganisationWalletPassTemplates(ctx.scope.organisationId)).map((t) => ({
      uid: t.id,
      displayName: t.displayName,
      passType: t.passType,
      requiresSignedPrescription: t.requiresSignedPrescription,
      shop: { uid: t.shop.id, identifier: t.shop.identifier, displayName: t.shop.displayName },
      livePasses: t.livePasses,
      createdAt: unix(t.createdAt),
    })),
    shops: (await listTemplateShops(ctx.scope.organisationId)).map((s) => ({ uid: s.id, identifier: s.identifier, displayName: s.displayName })),
  })),
  create: adminProcedure.input(createWalletPassTemplateInput).mutation(async ({ ctx, input: { shopUid, ...template } }) => ({
    uid: (await createWalletPassTemplate(ctx.scope.organisationId, ctx.user.id, { shopId: shopUid, ...template })).id,
  })),
  change: adminProcedure.input(changeWalletPassTemplateInput).mutation(async ({ ctx, input: { templateUid, ...change } }) => {
    await changeWalletPassTemplate(ctx.scope.organisationId, ctx.user.id, templateUid, change);
    return { saved: true };
  }),
  delete: adminProcedure.input(walletPassTemplateUidInput).mutation(async ({ ctx, input }) => {
    await deleteWalletPassTemplate(ctx.scope.organisationId, ctx.user.id, input.templateUid);
    return { deleted: true };
  }),
});

/** The language of the organisation's prescription documents (German by default). */
const prescriptionLanguage = router({
  get: adminProcedure.query(async ({ ctx }) => ({ language: await prescriptionLanguageSetting(ctx.scope.organisationId) })),
  change: adminProcedure
    .input(changePrescriptionLanguageInput)
    .mutation(async ({ ctx, input }) => ({ language: await changePrescriptionLanguage(ctx.scope.organisationId, ctx.user.id, input.language) })),
});

export const adminSettingsRouter = router({ profileFields, hiddenSkuTypes, patientTokenSecrets, walletPassTemplates, prescriptionLanguage });
