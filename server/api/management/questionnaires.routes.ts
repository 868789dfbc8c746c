import { z } from "zod";
import { publishQuestionnaireModel } from "@/server/domain/questionnaires/publish-model";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { freeFormObject } from "@/server/wire/schemas";
import { presentQuestionnaire, questionnaireSchema } from "./questionnaire.presenters";

// The model's size and its validity as a SurveyJS form are the domain's (survey-model.ts); the
// request's nesting is bounded at the edge (server/wire/json-input.ts).
const modelBody = z.object({
  model: z.record(z.string(), z.unknown()),
  theme: freeFormObject().optional(),
});

export const questionnaireRoutes = [
  route({
    method: "PATCH",
    path: "/questionnaires/:questionnaire_uid/model",
    examples: { body: { model: { pages: [{ name: "page1", elements: [{ type: "boolean", name: "allergies", title: "Do you have allergies?" }] }] } } },
    responses: { 200: questionnaireSchema },
    summary: "Publish a complete questionnaire model (SurveyJS); the live theme is kept when theme is omitted; older autosaved drafts are removed",
    permission: "questionnaire:write",
    body: modelBody,
    async handle({ principal, params, body, actor }) {
      return reply(200, presentQuestionnaire(await publishQuestionnaireModel(principal.organisationId, params.questionnaire_uid, body, actor)));
    },
  }),
];
