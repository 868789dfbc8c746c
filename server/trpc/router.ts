import { createCallerFactory, router } from "./init";
import { adminApiKeysRouter, adminTelemedicineProvidersRouter } from "./routers/admin";
import { adminQuestionnairesRouter } from "./routers/admin-questionnaires";
import { adminSettingsRouter } from "./routers/admin-settings";
import { adminAuditRouter } from "./routers/admin-audit";
import { adminWebhookLogsRouter, adminWebhooksRouter } from "./routers/admin-webhooks";
import { adminHomeRouter } from "./routers/admin-home";
import { adminIssuesRouter } from "./routers/admin-issues";
import { adminOrdersRouter } from "./routers/admin-orders";
import { pharmacyIssueThreadsRouter } from "./routers/pharmacy-issue-threads";
import { adminUsersRouter, passwordLinksRouter } from "./routers/admin-people";
import { adminPharmaciesRouter, adminPharmacyGroupsRouter } from "./routers/admin-pharmacies";
import { adminShopsRouter } from "./routers/admin-shops";
import { adminCatalogueRouter, adminPharmacyStockRouter } from "./routers/admin-catalogue";
import { adminPrescriptionsRouter } from "./routers/admin-prescriptions";
import { apiKeysRouter } from "./routers/api-keys";
import { doctorRequestsRouter, doctorStatisticsRouter, doctorWaitingRoomRouter } from "./routers/doctor";
import { pharmaciesRouter } from "./routers/pharmacies";
import { pharmacyHomeRouter } from "./routers/pharmacy-home";
import { pharmacySkusRouter } from "./routers/pharmacy-skus";
import { payoutsRouter } from "./routers/payouts";
import { shippingMethodsRouter } from "./routers/shipping-methods";
import { pharmacyOrdersRouter } from "./routers/pharmacy-orders";
import { webhookLogsRouter } from "./routers/webhook-logs";
import { webhookSubscriptionsRouter } from "./routers/webhook-subscriptions";

/** Every portal procedure, served at /api/trpc (app/api/trpc/[trpc]/route.ts). */
export const appRouter = router({
  adminApiKeys: adminApiKeysRouter,
  adminCatalogue: adminCatalogueRouter,
  adminPharmacyStock: adminPharmacyStockRouter,
  adminPrescriptions: adminPrescriptionsRouter,
  adminTelemedicineProviders: adminTelemedicineProvidersRouter,
  adminQuestionnaires: adminQuestionnairesRouter,
  adminSettings: adminSettingsRouter,
  adminAudit: adminAuditRouter,
  adminWebhooks: adminWebhooksRouter,
  adminWebhookLogs: adminWebhookLogsRouter,
  adminHome: adminHomeRouter,
  adminIssues: adminIssuesRouter,
  adminOrders: adminOrdersRouter,
  pharmacyIssueThreads: pharmacyIssueThreadsRouter,
  adminUsers: adminUsersRouter,
  passwordLinks: passwordLinksRouter,
  adminPharmacies: adminPharmaciesRouter,
  adminPharmacyGroups: adminPharmacyGroupsRouter,
  adminShops: adminShopsRouter,
  apiKeys: apiKeysRouter,
  doctorRequests: doctorRequestsRouter,
  doctorStatistics: doctorStatisticsRouter,
  doctorWaitingRoom: doctorWaitingRoomRouter,
  pharmacies: pharmaciesRouter,
  pharmacyHome: pharmacyHomeRouter,
  pharmacySkus: pharmacySkusRouter,
  payouts: payoutsRouter,
  shippingMethods: shippingMethodsRouter,
  pharmacyOrders: pharmacyOrdersRouter,
  webhookLogs: webhookLogsRouter,
  webhookSubscriptions: webhookSubscriptionsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side calls (server components, tests): `createCaller(context).webhookLogs.list(…)`. */
export const createCaller = createCallerFactory(appRouter);
