import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

/** The organisation's questionnaires for the admin tool's list, newest change first (no models: they can be large). */
export async function listQuestionnaires(organisationId: string) {
  const db = await database();
  return db.questionnaire.findMany({
    where: { organisationId },
    select: { id: true, displayName: true, publishedAt: true, draftSavedAt: true, createdAt: true, updatedAt: true, _count: { select: { responses: true } } },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
  });
}

export type QuestionnaireForEditor = {
  id: string;
  displayName: string;
  model: unknown;
  theme: unknown;
  draftModel: unknown;
  draftSavedAt: Date | null;
  publishedAt: Date | null;
  updatedAt: Date;
};

/** One questionnaire of the organisation with its live model and its autosaved draft; another organisation's is not found. */
export async function getQuestionnaireForEditor(organisationId: string, questionnaireId: string): Promise<QuestionnaireForEditor> {
  const db = await database();
  const row = await db.questionnaire.findFirst({
    where: { id: questionnaireId, organisationId },
    select: { id: true, displayName: true, model: true, theme: true, draftModel: true, draftSavedAt: true, publishedAt: true, updatedAt: true },
  });
  if (!row) throw new NotFoundError();
  return row;
}
