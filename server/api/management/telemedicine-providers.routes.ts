import { z } from "zod";
import {
  changeTelemedicineProviderSettings,
  getTelemedicineProviderSettings,
  listTelemedicineProviders,
} from "@/server/domain/telemedicine/providers";
import { route } from "@/server/rest/kit";
import { managementExamples as examples } from "./examples";
import { reply } from "@/server/rest/responses";
import { countedListSchema } from "@/server/wire/format";
import {
  presentTelemedicineProvider,
  presentTelemedicineProviderSettings,
  telemedicineProviderSchema,
  telemedicineProviderSettingsSchema,
} from "./telemedicine-provider.presenters";

const settingsBody = z.object({ allow_non_qes_signed_prescriptions: z.boolean() });

export const telemedicineProviderRoutes = [
  route({
    method: "GET",
    path: "/telemedicine-providers",
    examples: { responses: { 200: examples.telemedicineProviders } },
    responses: { 200: countedListSchema(telemedicineProviderSchema) },
    summary: "The organisation's connected telemedicine providers (not paginated)",
    permission: "telemedicine_provider:read",
    async handle({ principal }) {
      const providers = await listTelemedicineProviders(principal.organisationId);
      return reply(200, { data: providers.map(presentTelemedicineProvider), total: providers.length });
    },
  }),
  route({
    method: "GET",
    path: "/telemedicine-providers/:provider_uid/settings",
    responses: { 200: telemedicineProviderSettingsSchema },
    summary: "A provider's settings",
    permission: "telemedicine_provider:read",
    async handle({ principal, params }) {
      const settings = await getTelemedicineProviderSettings(principal.organisationId, params.provider_uid);
      return reply(200, presentTelemedicineProviderSettings(settings));
    },
  }),
  route({
    method: "PATCH",
    path: "/telemedicine-providers/:provider_uid/settings",
    examples: { body: { allow_non_qes_signed_prescriptions: true } },
    responses: { 200: telemedicineProviderSettingsSchema },
    summary: "Change a provider's settings: allow_non_qes_signed_prescriptions (boolean, required)",
    permission: "telemedicine_provider:write",
    body: settingsBody,
    async handle({ principal, params, body, actor }) {
      const settings = await changeTelemedicineProviderSettings(
        principal.organisationId,
        params.provider_uid,
        { allowNonQesSignedPrescriptions: body.allow_non_qes_signed_prescriptions },
        actor,
      );
      return reply(200, presentTelemedicineProviderSettings(settings));
    },
  }),
];
