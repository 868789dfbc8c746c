import { healthRoute } from "@/server/api/health";
import { PUBLIC } from "@/server/rest/families";
import { createRestApi } from "@/server/rest/kit";
import { checkoutRoutes } from "./checkouts.routes";
import { storefrontRoutes } from "./storefront.routes";

export const publicApi = createRestApi(PUBLIC, [healthRoute, ...storefrontRoutes, ...checkoutRoutes]);
