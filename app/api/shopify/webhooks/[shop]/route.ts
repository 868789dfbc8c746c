import { handleShopifyWebhook } from "@/server/api/shopify/webhooks";
import { unservedMethods, withApiHeaders } from "@/server/http/security-headers";

// A shop's Shopify order webhooks (server/api/shopify/webhooks.ts).
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ shop: string }> };
const handler = withApiHeaders(async (request: Request, context: Context) => handleShopifyWebhook(request, (await context.params).shop));

export { handler as POST };

// The other methods: as Next.js answers them, with the API security headers.
const unserved = unservedMethods(["POST"]);
export const GET = unserved.GET;
export const HEAD = unserved.HEAD;
export const PUT = unserved.PUT;
export const PATCH = unserved.PATCH;
export const DELETE = unserved.DELETE;
export const OPTIONS = unserved.OPTIONS;
