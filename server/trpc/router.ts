import { createCallerFactory, router } from "./init";
import { pharmaciesRouter } from "./routers/pharmacies";
import { pharmacyOrdersRouter } from "./routers/pharmacy-orders";
import { webhookLogsRouter } from "./routers/webhook-logs";
import { webhookSubscriptionsRouter } from "./routers/webhook-subscriptions";

/** Every portal procedure, served at /api/trpc (app/api/trpc/[trpc]/route.ts). */
export const appRouter = router({
  pharmacies: pharmaciesRouter,
  pharmacyOrders: pharmacyOrdersRouter,
  webhookLogs: webhookLogsRouter,
  webhookSubscriptions: webhookSubscriptionsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side calls (server components, tests): `createCaller(context).webhookLogs.list(…)`. */
export const createCaller = createCallerFactory(appRouter);
