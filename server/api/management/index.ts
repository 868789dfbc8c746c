import { healthRoute } from "@/server/api/health";
import { managementWebhookDocs } from "@/server/api/webhooks/event-docs";
import { MANAGEMENT } from "@/server/rest/families";
import { createRestApi } from "@/server/rest/kit";
import { catalogueRoutes } from "./catalogue.routes";
import { doctorRoutes } from "./doctors.routes";
import { notificationSubscriptionRoutes } from "./notification-subscriptions.routes";
import { orderRoutes } from "./orders.routes";
import { patientRoutes } from "./patients.routes";
import { prescriptionRoutes } from "./prescriptions.routes";
import { questionnaireRoutes } from "./questionnaires.routes";
import { telemedicineProviderRoutes } from "./telemedicine-providers.routes";
import { waitingRoomRoutes } from "./waiting-room.routes";
import { walletPassRoutes } from "./wallet-passes.routes";

export const managementApi = createRestApi(MANAGEMENT, [
  healthRoute,
  ...orderRoutes,
  ...prescriptionRoutes,
  ...catalogueRoutes,
  ...notificationSubscriptionRoutes,
  ...telemedicineProviderRoutes,
  ...questionnaireRoutes,
  ...doctorRoutes,
  ...patientRoutes,
  ...waitingRoomRoutes,
  ...walletPassRoutes,
], { webhooks: managementWebhookDocs });
