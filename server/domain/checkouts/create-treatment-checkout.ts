import { database } from "@/server/db/client";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { surveyAnswerProblems } from "@/server/domain/questionnaires/survey-answers";
import type { CheckoutInput } from "./checkout-request";
import { openCheckout, type OpenedCheckoutResult } from "./open-checkout";

export type TreatmentCheckoutInput = CheckoutInput & {
  questionnaireUid: string;
  answers: Record<string, unknown>;
  intent: string | null;
};

/**
 * POST /v2/public-api/treatments/{shop_identifier}: a checkout for a treatment a doctor must
 * prescribe (docs/decisions/intake.md#checkouts). The answers are checked against the
 * questionnaire's model (404 when it is not the organisation's; 400 on answers.<question> otherwise)
 * and stored, in the checkout's transaction, as a completed questionnaire response (the anamnesis)
 * of the patient with the intent; every line carries it, so the order made on completion waits for
 * a doctor (intake path (b)).
 */
export async function createTreatmentCheckout(organisationId: string, input: TreatmentCheckoutInput): Promise<OpenedCheckoutResult & { anamnesisId: string }> {
  const db = await database();
  const questionnaire = await db.questionnaire.findFirst({ where: { id: input.questionnaireUid, organisationId }, select: { id: true, model: true } });
  if (!questionnaire) throw new NotFoundError();
  const problems = surveyAnswerProblems(questionnaire.model, input.answers);
  if (Object.keys(problems).length > 0) throw new ValidationError({ answers: problems });

  let anamnesisId = "";
  const opened = await openCheckout(organisationId, input, {
    kind: "TREATMENT_CHECKOUT",
    async forPatient(tx, patientId) {
      const response = await tx.questionnaireResponse.create({
        data: {
          questionnaireId: questionnaire.id,
          patientId,
          status: "COMPLETED",
          data: input.answers as object,
          intent: input.intent,
          completedAt: new Date(),
        },
        select: { id: true },
      });
      anamnesisId = response.id;
      return { anamnesisId };
    },
  });
  return { ...opened, anamnesisId };
}
