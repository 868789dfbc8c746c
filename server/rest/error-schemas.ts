import { z } from "zod";

/**
 * The error bodies of the REST families (spec, Errors: body formats), as zod schemas: the OpenAPI
 * documents show them per status, and the tests check every error body a route answers against them.
 */

/** 1. Standard error: {error: <string>} ("Resource not found", "Bad request", a conflict's message). */
export const standardErrorSchema = z.object({ error: z.string() }).meta({ title: "Error" });

/** Field errors, {<field>: [<message>, …]}, nested by object where the field is inside one. */
export const fieldErrorsSchema = z
  .record(z.string(), z.union([z.array(z.string()), z.record(z.string(), z.unknown())]))
  .meta({ description: "Messages per field; nested by object where the field is inside one.", examples: [{ display_name: ["This field is required."] }] });

/** 3. Validation error: {error: {<field>: [<message>, …]}}; every listed field must be fixed. */
export const validationErrorSchema = z.object({ error: fieldErrorsSchema }).meta({ title: "ValidationError" });

export const AUTH_ERROR_CODES = ["authorization_header_missing", "invalid_header", "token_expired", "invalid_claims", "invalid_api_key", "api_key_missing"] as const;

/** 2. Authentication error: {code, description}. */
export const authErrorSchema = z.object({ code: z.enum(AUTH_ERROR_CODES), description: z.string() }).meta({ title: "AuthenticationError" });

/** 403 of the Management and Public API (and patient data): the permission is named in description. */
export const permissionDeniedSchema = z.object({ code: z.literal("permission_denied"), description: z.string() }).meta({ title: "PermissionDenied" });

/** 403 of the External Pharmacy API and payouts: {error: "Permission denied"}. */
export const pharmacyPermissionDeniedSchema = z.object({ error: z.literal("Permission denied") }).meta({ title: "PermissionDenied" });

/** 409: the message, and for some conflicts a code with details (order_already_exists carries order_uid). */
export const conflictErrorSchema = z
  .object({
    error: z.string(),
    code: z.string().optional().describe("Set for conflicts a client can act on, e.g. order_already_exists"),
    // Named so that a client recovers the answer it lost (the spec: retrying an intake answers 409 with the order's uid).
    order_uid: z.string().optional().describe("With code order_already_exists: the uid of the order that exists (GET /v1/management/orders/{order_uid}/)"),
  })
  .catchall(z.unknown())
  .meta({ title: "Conflict", examples: [{ code: "order_already_exists", order_uid: "3f1c2a9e-8d4b-4c1a-9f0e-2b7d6c5a4e31", error: "Order already exists" }] });

/** 422: well-formed but invalid data: the message, or the field messages with a summary in message. */
export const unprocessableErrorSchema = z
  .union([standardErrorSchema, z.object({ error: fieldErrorsSchema, message: z.string() })])
  .meta({ title: "Unprocessable" });

/**
 * 502 / 503 of a command that depends on the shop's platform (a Shopify store): refused by it, or it
 * could not be asked (retry later). A 503 may also be the kit's busy answer ({error} alone).
 */
export const upstreamErrorSchema = z
  .object({ code: z.enum(["shop_platform_refused", "shop_platform_unavailable"]), error: z.string() })
  .meta({ title: "ShopPlatformError", examples: [{ code: "shop_platform_unavailable", error: "Shopify could not be reached; retry in a moment." }] });
