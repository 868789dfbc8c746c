import { healthRoute } from "@/server/api/health";
import { MANAGEMENT } from "@/server/rest/families";
import { createRestApi } from "@/server/rest/kit";
import { catalogueRoutes } from "./catalogue.routes";
import { notificationSubscriptionRoutes } from "./notification-subscriptions.routes";
import { orderRoutes } from "./orders.routes";
import { prescriptionRoutes } from "./prescriptions.routes";
import { walletPassRoutes } from "./wallet-passes.routes";

export const managementApi = createRestApi(MANAGEMENT, [healthRoute, ...orderRoutes, ...prescriptionRoutes, ...catalogueRoutes, ...notificationSubscriptionRoutes, ...walletPassRoutes]);
