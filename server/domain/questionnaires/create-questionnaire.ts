import { errorText } from "@/i18n/error-text";
import { database, type Prisma } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ValidationError } from "@/server/domain/errors";

/**
 * What a new questionnaire starts with: a valid model of one question, so that it loads in the
 * editor's preview and in a treatment checkout from the start, and the editor has something to change.
 */
export const STARTER_MODEL = {
  pages: [{ name: "page1", elements: [{ type: "text", name: "question1", title: "Your first question", isRequired: true }] }],
} as const;

/**
 * Creates a questionnaire of the organisation (the admin tool; the API only publishes models of
 * existing ones). Its intent is not the questionnaire's: each response carries the intent it was
 * submitted for (the treatment checkout's `intent`). docs/decisions/admin-tool.md#settings
 */
export async function createQuestionnaire(organisationId: string, userId: string, input: { displayName: string }): Promise<{ id: string }> {
  const displayName = input.displayName.trim();
  if (!displayName) throw ValidationError.field("displayName", errorText("fields.notBlank"));
  if (displayName.length > 200) throw ValidationError.field("displayName", errorText("fields.maxLength", { maximum: 200 }));
  const db = await database();
  return db.$transaction(async (tx) => {
    const created = await tx.questionnaire.create({
      data: { organisationId, displayName, model: STARTER_MODEL as unknown as Prisma.InputJsonObject },
      select: { id: true },
    });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "questionnaire",
      entityId: created.id,
      action: "created",
      summary: `Questionnaire "${displayName}" created`,
      values: { name: displayName },
    });
    return created;
  });
}
