import { database, Prisma } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { surveyModelProblems } from "./survey-model";

export type PublishedQuestionnaire = { id: string; model: unknown; theme: unknown };

/**
 * Publishes a complete questionnaire model (not a partial patch) at once: it replaces the live
 * model, keeps the live theme unless a new one is given, and removes the editor's older autosaved
 * draft, so the editor cannot later restore a draft made before this publication. Concurrent
 * publications each write a whole model; the last one wins. The one door for publishing: the
 * Management API's PATCH …/model and the admin tool's editor both call it.
 */
export async function publishQuestionnaireModel(
  organisationId: string,
  questionnaireId: string,
  change: { model: Record<string, unknown>; theme?: Record<string, unknown> },
  actor: Actor,
): Promise<PublishedQuestionnaire> {
  const problems = surveyModelProblems(change.model);
  if (problems.length > 0) throw new ValidationError({ model: problems });

  const db = await database();
  const [updated] = await db.$transaction(async (tx) => {
    const { count } = await tx.questionnaire.updateMany({
      where: { id: questionnaireId, organisationId },
      data: {
        model: change.model as Prisma.InputJsonObject,
        ...(change.theme !== undefined ? { theme: change.theme as Prisma.InputJsonObject } : {}),
        draftModel: Prisma.DbNull,
        draftSavedAt: null,
        publishedAt: new Date(),
      },
    });
    if (count === 0) return [];
    const rows = await tx.questionnaire.findMany({ where: { id: questionnaireId }, select: { id: true, displayName: true, model: true, theme: true } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "questionnaire",
      entityId: questionnaireId,
      action: "published",
      summary: `Questionnaire "${rows[0].displayName}" published${change.theme !== undefined ? " with a new theme" : ""}`,
      values: { name: rows[0].displayName, theme: String(change.theme !== undefined) },
    });
    return rows.map(({ id, model, theme }) => ({ id, model, theme }));
  });
  if (!updated) throw new NotFoundError();
  return updated;
}
