/**
 * The admin tool's questionnaires: list, create, the editor's questionnaire with its draft, the
 * autosave, and publishing through the Management API's own function (publishQuestionnaireModel:
 * one validation, one set of messages, for PATCH …/model and the editor alike).
 */
import { createQuestionnaire } from "@/server/domain/questionnaires/create-questionnaire";
import { publishQuestionnaireModel } from "@/server/domain/questionnaires/publish-model";
import { getQuestionnaireForEditor, listQuestionnaires } from "@/server/domain/questionnaires/queries";
import { saveQuestionnaireDraft } from "@/server/domain/questionnaires/save-draft";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix, unixOrNull } from "@/server/wire/format";
import { createQuestionnaireInput, publishQuestionnaireInput, questionnaireUidInput, saveDraftInput } from "./admin-questionnaires.schemas";

const jsonObject = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export const adminQuestionnairesRouter = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listQuestionnaires(ctx.scope.organisationId)).map((q) => ({
      uid: q.id,
      displayName: q.displayName,
      publishedAt: unixOrNull(q.publishedAt),
      draftSavedAt: unixOrNull(q.draftSavedAt),
      responses: q._count.responses,
      createdAt: unix(q.createdAt),
      updatedAt: unix(q.updatedAt),
    })),
  ),

  get: adminProcedure.input(questionnaireUidInput).query(async ({ ctx, input }) => {
    const q = await getQuestionnaireForEditor(ctx.scope.organisationId, input.questionnaireUid);
    return {
      uid: q.id,
      displayName: q.displayName,
      model: jsonObject(q.model) ?? {},
      theme: jsonObject(q.theme),
      draftModel: jsonObject(q.draftModel),
      draftSavedAt: unixOrNull(q.draftSavedAt),
      publishedAt: unixOrNull(q.publishedAt),
      updatedAt: unix(q.updatedAt),
    };
  }),

  create: adminProcedure
    .input(createQuestionnaireInput)
    .mutation(async ({ ctx, input }) => ({ uid: (await createQuestionnaire(ctx.scope.organisationId, ctx.user.id, input)).id })),

  saveDraft: adminProcedure.input(saveDraftInput).mutation(async ({ ctx, input }) => {
    const { draftSavedAt } = await saveQuestionnaireDraft(ctx.scope.organisationId, input.questionnaireUid, input.model);
    return { draftSavedAt: unixOrNull(draftSavedAt) };
  }),

  publish: adminProcedure.input(publishQuestionnaireInput).mutation(async ({ ctx, input }) => {
    const published = await publishQuestionnaireModel(
      ctx.scope.organisationId,
      input.questionnaireUid,
      { model: input.model, ...(input.theme !== undefined ? { theme: input.theme } : {}) },
      { type: "USER", userId: ctx.user.id },
    );
    return { uid: published.id, model: published.model as Record<string, unknown>, theme: jsonObject(published.theme) ?? {} };
  }),
});
