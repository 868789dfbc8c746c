import { createCallerFactory, router } from "./init";
import { adminApiKeysRouter, adminTelemedicineProvidersRouter } from "./routers/admin";
import { adminCatalogueRouter, adminPharmacyStockRouter } from "./routers/admin-catalogue";
import { adminPrescriptionsRouter } from "./routers/admin-prescriptions";
import { apiKeysRouter } from "./routers/api-keys";
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
  apiKeys: apiKeysRouter,
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
