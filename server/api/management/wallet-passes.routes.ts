import { z } from "zod";
import { issueWalletPass } from "@/server/domain/wallet-passes/issue-pass";
import { PUSH_BATCH_MAX, queuePushNotifications } from "@/server/domain/wallet-passes/push-notifications";
import { getWalletPass, listWalletPasses, listWalletPassTemplates } from "@/server/domain/wallet-passes/queries";
import { revokeWalletPass } from "@/server/domain/wallet-passes/revoke-pass";
import { verifyWalletPass } from "@/server/domain/wallet-passes/verify-pass";
import { route } from "@/server/rest/kit";
import { managementExamples as examples } from "./examples";
import { reply } from "@/server/rest/responses";
import { barcodeValue, text, uid } from "@/server/wire/schemas";
import { conflictErrorSchema, unprocessableErrorSchema } from "@/server/rest/error-schemas";
import { countedListSchema } from "@/server/wire/format";
import {
  passVerificationSchema,
  presentPassVerification,
  presentPushNotification,
  presentWalletPass,
  presentWalletPassTemplate,
  pushNotificationSchema,
  walletPassSchema,
  walletPassTemplateSchema,
} from "./wallet-pass.presenters";

const shopIdentifier = () => text();
const shopCustomerId = () => text();

/** The longest message of a push notification (it becomes the pass's change message). */
const MESSAGE_MAX = 1000;

const pushNotificationsBody = z
  .array(z.object({ wallet_pass_uid: uid(), message: text(MESSAGE_MAX) }))
  .min(1)
  .max(PUSH_BATCH_MAX, `At most ${PUSH_BATCH_MAX} notifications per request.`);

export const walletPassRoutes = [
  route({
    method: "GET",
    path: "/wallet-passes/templates",
    responses: { 200: countedListSchema(walletPassTemplateSchema) },
    summary: "The wallet pass templates of a shop (not paginated)",
    permission: "wallet_pass_template:read",
    query: z.object({ shop_identifier: shopIdentifier() }),
    async handle({ principal, query }) {
      const templates = await listWalletPassTemplates(principal.organisationId, query.shop_identifier);
      return reply(200, { data: templates.map(presentWalletPassTemplate), total: templates.length });
    },
  }),
  route({
    method: "GET",
    path: "/wallet-passes",
    examples: { responses: { 200: examples.walletPasses } },
    responses: { 200: countedListSchema(walletPassSchema) },
    summary: "The live wallet passes of a shop's customer (not paginated), optionally of one template",
    permission: "wallet_pass:read",
    query: z.object({ shop_customer_id: shopCustomerId(), shop_identifier: shopIdentifier(), wallet_pass_template_uid: uid().optional() }),
    async handle({ principal, query }) {
      const passes = await listWalletPasses(principal.organisationId, {
        shopIdentifier: query.shop_identifier,
        shopCustomerId: query.shop_customer_id,
        templateId: query.wallet_pass_template_uid,
      });
      return reply(200, { data: passes.map(presentWalletPass), total: passes.length });
    },
  }),
  route({
    method: "POST",
    path: "/wallet-passes",
    examples: {
      body: { wallet_pass_template_uid: "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f", shop_customer_id: "customer-42", shop_identifier: "shop.example" },
      responses: { 201: examples.walletPass },
    },
    responses: { 200: walletPassSchema, 201: walletPassSchema, 409: conflictErrorSchema, 422: unprocessableErrorSchema },
    summary:
      "Issue a customer's pass for a template: 201 new; 200 when the customer already holds a live pass of the template (refreshed). The customer must exist in the shop; some templates need a signed prescription",
    permission: "wallet_pass:write",
    body: z.object({ wallet_pass_template_uid: uid(), shop_customer_id: shopCustomerId(), shop_identifier: shopIdentifier() }),
    async handle({ principal, body }) {
      const { pass, created } = await issueWalletPass(principal.organisationId, {
        templateId: body.wallet_pass_template_uid,
        shopCustomerId: body.shop_customer_id,
        shopIdentifier: body.shop_identifier,
      });
      return reply(created ? 201 : 200, presentWalletPass(pass));
    },
  }),
  route({
    method: "POST",
    path: "/wallet-passes/verify",
    examples: { body: { barcode_value: "WP-7Q2M-9XK4-LT3B" } },
    responses: { 200: passVerificationSchema },
    summary: "Verify a scanned barcode value: valid, status (revoked for a deleted pass) and the customer's shop_customer_id",
    permission: "wallet_pass:verify",
    successStatus: 200,
    body: z.object({ barcode_value: barcodeValue() }),
    async handle({ principal, body }) {
      return reply(200, presentPassVerification(await verifyWalletPass(principal.organisationId, body.barcode_value)));
    },
  }),
  route({
    method: "POST",
    path: "/wallet-passes/push-notifications",
    examples: { body: [{ wallet_pass_uid: "4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b", message: "Hello {first_name}, your order has shipped." }] },
    responses: { 201: countedListSchema(pushNotificationSchema) },
    summary: `Queue push notifications (a JSON array, at most ${PUSH_BATCH_MAX}; {field} placeholders filled from the patient's profile fields), all or nothing`,
    permission: "wallet_pass_push_notification:write",
    body: pushNotificationsBody,
    async handle({ principal, body }) {
      const notifications = await queuePushNotifications(
        principal.organisationId,
        body.map((entry) => ({ walletPassId: entry.wallet_pass_uid, message: entry.message })),
      );
      return reply(201, { data: notifications.map(presentPushNotification), total: notifications.length });
    },
  }),
  route({
    method: "GET",
    path: "/wallet-passes/:wallet_pass_uid",
    examples: { responses: { 200: examples.walletPass } },
    responses: { 200: walletPassSchema },
    summary: "One wallet pass (not deleted)",
    permission: "wallet_pass:read",
    async handle({ principal, params }) {
      return reply(200, presentWalletPass(await getWalletPass(principal.organisationId, params.wallet_pass_uid)));
    },
  }),
  route({
    method: "DELETE",
    path: "/wallet-passes/:wallet_pass_uid",
    responses: { 204: null },
    summary: "Revoke a wallet pass (soft delete; verify then answers revoked)",
    permission: "wallet_pass:write",
    async handle({ principal, params, actor }) {
      await revokeWalletPass(principal.organisationId, params.wallet_pass_uid, actor);
      return reply(204);
    },
  }),
];
