import { errorText } from "@/i18n/error-text";
import { database, Prisma } from "@/server/db/client";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { SURVEY_MODEL_MAX_BYTES } from "./survey-model";

/**
 * The editor's autosave: keeps the model being edited as the questionnaire's draft, whatever
 * survey-core would say of it (an unfinished edit is allowed; publishing checks). The live model
 * does not change, so no audit event: the log records publications. `draftModel` null discards
 * the draft. Returns when it was saved.
 */
export async function saveQuestionnaireDraft(
  organisationId: string,
  questionnaireId: string,
  draftModel: Record<string, unknown> | null,
): Promise<{ draftSavedAt: Date | null }> {
  if (draftModel !== null && Buffer.byteLength(JSON.stringify(draftModel)) > SURVEY_MODEL_MAX_BYTES) {
    throw new ValidationError({ model: [errorText("fields.jsonTooLarge", { kib: SURVEY_MODEL_MAX_BYTES / 1024 })] });
  }
  const draftSavedAt = draftModel === null ? null : new Date();
  const db = await database();
  const { count } = await db.questionnaire.updateMany({
    where: { id: questionnaireId, organisationId },
    data: { draftModel: draftModel === null ? Prisma.DbNull : (draftModel as Prisma.InputJsonObject), draftSavedAt },
  });
  if (count === 0) throw new NotFoundError();
  return { draftSavedAt };
}
