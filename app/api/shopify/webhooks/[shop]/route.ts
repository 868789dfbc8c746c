import { handleShopifyWebhook } from "@/server/api/shopify/webhooks";
import { withApiHeaders } from "@/server/http/security-headers";

// A shop's Shopify order webhooks (server/api/shopify/webhooks.ts).
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ shop: string }> };
const handler = withApiHeaders(async (request: Request, context: Context) => handleShopifyWebhook(request, (await context.params).shop));

export { handler as POST };
