import { createCallerFactory, doctorsProcedure, portalProcedure, router } from "./init";
import { adminApiKeysRouter, adminTelemedicineProvidersRouter } from "./routers/admin";
import { adminAssortmentsRouter } from "./routers/admin-assortments";
import { adminAuditRouter } from "./routers/admin-audit";
import { adminCatalogueRouter } from "./routers/admin-catalogue";
import { adminDoctorsRouter } from "./routers/admin-doctors";
import { adminHomeRouter } from "./routers/admin-home";
import { adminIssuesRouter } from "./routers/admin-issues";
import { adminMailRouter } from "./routers/admin-mail";
import { adminOrdersRouter } from "./routers/admin-orders";
import { adminPaymentProviderRouter } from "./routers/admin-payment-provider";
import { adminPatientsRouter } from "./routers/admin-patients";
import { adminUsersRouter, passwordLinksRouter } from "./routers/admin-people";
import { adminPharmaciesRouter, adminPharmacyGroupsRouter } from "./routers/admin-pharmacies";
import { adminPrescriptionsRouter } from "./routers/admin-prescriptions";
import { adminQuestionnairesRouter } from "./routers/admin-questionnaires";
import { adminSettingsRouter } from "./routers/admin-settings";
import { adminShopsRouter } from "./routers/admin-shops";
import { adminTrustServiceRouter } from "./routers/admin-trust-service";
import { apiKeysRouter } from "./routers/api-keys";
import { appointmentsRouter } from "./routers/appointments";
import { deliveryLogsRouter } from "./routers/delivery-logs";
import { doctorNoticesRouter, doctorRequestsRouter, doctorSignCentreRouter, doctorSigningRouter, doctorStatisticsRouter, doctorWaitingRoomRouter } from "./routers/doctor";
import { payoutsRouter } from "./routers/payouts";
import { pharmaciesRouter } from "./routers/pharmacies";
import { pharmacyHomeRouter } from "./routers/pharmacy-home";
import { pharmacyIssueThreadsRouter } from "./routers/pharmacy-issue-threads";
import { pharmacyOrdersRouter } from "./routers/pharmacy-orders";
import { pharmacyWalletPassesRouter } from "./routers/pharmacy-wallet-passes";
import { shippingMethodsRouter } from "./routers/shipping-methods";
import { stockRouter } from "./routers/stock";
import { webhooksRouter } from "./routers/webhooks";

/**
 * The pharmacy portal (/pharmacy): pharmacists, within the pharmacies in their reach. The twins
 * (webhooks, deliveryLogs, stock, payouts) are the admin tool's routers under the pharmacy portal's scope.
 */
const pharmacyRouter = router({
  home: pharmacyHomeRouter,
  orders: pharmacyOrdersRouter,
  issueThreads: pharmacyIssueThreadsRouter,
  stock: stockRouter(portalProcedure("pharmacy")),
  payouts: payoutsRouter(portalProcedure("pharmacy")),
  shippingMethods: shippingMethodsRouter,
  apiKeys: apiKeysRouter,
  webhooks: webhooksRouter(portalProcedure("pharmacy")),
  deliveryLogs: deliveryLogsRouter(portalProcedure("pharmacy")),
  pharmacies: pharmaciesRouter,
  walletPasses: pharmacyWalletPassesRouter,
});

/** The admin tool (/admin): administrators, within their organisation. */
const adminRouter = router({
  home: adminHomeRouter,
  orders: adminOrdersRouter,
  patients: adminPatientsRouter,
  issues: adminIssuesRouter,
  catalogue: adminCatalogueRouter,
  pharmacyStock: stockRouter(portalProcedure("admin")),
  assortments: adminAssortmentsRouter,
  prescriptions: adminPrescriptionsRouter,
  payouts: payoutsRouter(portalProcedure("admin")),
  paymentProvider: adminPaymentProviderRouter,
  trustService: adminTrustServiceRouter,
  appointments: appointmentsRouter(doctorsProcedure("admin")),
  telemedicineProviders: adminTelemedicineProvidersRouter,
  questionnaires: adminQuestionnairesRouter,
  settings: adminSettingsRouter,
  audit: adminAuditRouter,
  mail: adminMailRouter,
  webhooks: webhooksRouter(portalProcedure("admin")),
  deliveryLogs: deliveryLogsRouter(portalProcedure("admin")),
  users: adminUsersRouter,
  doctors: adminDoctorsRouter,
  pharmacies: adminPharmaciesRouter,
  pharmacyGroups: adminPharmacyGroupsRouter,
  shops: adminShopsRouter,
  apiKeys: adminApiKeysRouter,
});

/** The doctors' workspace (/admin/doctor): doctors, as the Doctor they are bound to (appointments: the admin tool's twin). */
const doctorRouter = router({
  requests: doctorRequestsRouter,
  signCentre: doctorSignCentreRouter,
  notices: doctorNoticesRouter,
  signing: doctorSigningRouter,
  statistics: doctorStatisticsRouter,
  waitingRoom: doctorWaitingRoomRouter,
  appointments: appointmentsRouter(doctorsProcedure("doctor")),
});

/** Every portal procedure, served at /api/trpc (app/api/trpc/[trpc]/route.ts), nested by portal door. */
export const appRouter = router({
  pharmacy: pharmacyRouter,
  admin: adminRouter,
  doctor: doctorRouter,
  /** The public pages of a password link (/invitation/…, /reset-password/…): anyone holding the link. */
  passwordLinks: passwordLinksRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side calls (server components, tests): `createCaller(context).pharmacy.deliveryLogs.list(…)`. */
export const createCaller = createCallerFactory(appRouter);
