import type { z } from "zod";
import type { ApiPrincipal } from "@/server/auth/api-keys";
import type { PatientTokenScope } from "@/server/auth/patient-tokens";
import type { ApiKeyFamily } from "@/server/db/generated/enums";
import type { Actor } from "@/server/domain/actor";
import type { BadRequestError, FieldErrors } from "@/server/domain/errors";
import type { ScopedPharmacy } from "@/server/domain/pharmacies/pharmacy-scope";
import type { Page } from "@/server/domain/paging";
import type { Reply } from "./responses";

/** The shapes of the REST kit (./kit.ts), its route tables and its OpenAPI generator (./openapi.ts). */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How one API family authenticates and shapes its errors (the spec's Authentication and Errors sections). */
export type Family = {
  name: string;
  /** Shown in the API explorer. */
  title: string;
  basePath: string;
  keyFamily: ApiKeyFamily;
  /** X-Service-Authorization and `Authorization: Bearer` are accepted on the Public API only. */
  legacyAuthHeaders: boolean;
  /** Pharmacy keys: requests act for one pharmacy (group keys select it with pharmacy_uid). */
  pharmacyScoped: boolean;
  /** The header that carries a patient token (server/auth/patient-tokens.ts) instead of a key, on the routes that accept one. */
  patientTokenHeader?: string;
  permissionDenied(permission: string): unknown;
  /** A body that is not valid JSON, lacks the JSON content type, or (form routes) is not form data. */
  invalidBody(reason: "json" | "content_type" | "form"): unknown;
  /** The body of a refused request (a BadRequestError of the domain). */
  refused(error: BadRequestError): unknown;
  /** The zod schemas of the bodies above, for the OpenAPI document and the response checks of the tests. */
  errorSchemas: { permissionDenied: z.ZodType; refused: z.ZodType };
  maxLimit: number;
};

/** What a handler gets: the caller and the parsed input, nothing else. */
export type Context<Q, B> = {
  params: Record<string, string>;
  query: Q;
  body: B;
  /** The key; a request authenticated by a patient token has none (reading it throws). */
  principal: ApiPrincipal;
  /** The key, as the actor recorded in histories (a key only, as principal). */
  actor: Actor;
  /** The organisation the caller acts in: the key's, or the patient token secret's. */
  organisationId: string;
  /** Set when a patient token authenticated the request: it acts for that one shop customer only. */
  patientToken: PatientTokenScope | null;
  /** The pharmacy the request acts for; set on pharmacy-scoped routes only. */
  pharmacy: ScopedPharmacy;
  page: Page;
};

type AnySchema = z.ZodType;

export type ResponseSchemas = { [status: number]: z.ZodType | null };
export type RouteExamples = { body?: unknown; query?: Record<string, string>; responses?: { [status: number]: unknown } };

export type RouteDef<Q extends AnySchema, B extends AnySchema> = {
  method: Method;
  /** Relative to the family's base path, e.g. "/skus/:sku_uid". */
  path: string;
  /** What a path parameter is, for the OpenAPI document, where its name alone does not say it. */
  pathParams?: Record<string, string>;
  summary: string;
  /** Required permission; omitted: any valid key of the family. */
  permission?: string;
  /** Pharmacy families: "required" (default) needs a resolved pharmacy; "optional" resolves one only when given. */
  pharmacyScope?: "required" | "optional";
  /** Also accepted: a patient token in the family's patientTokenHeader, instead of a key (no permission applies). */
  acceptsPatientToken?: boolean;
  query?: Q;
  body?: B;
  /** How the body is sent: JSON (default), or form data (multipart/form-data or application/x-www-form-urlencoded) of text fields. */
  bodyFormat?: "json" | "form";
  /** Status of a success, for the OpenAPI document (default: 201 for POST, 204 for DELETE, else 200). */
  successStatus?: number;
  /**
   * The response bodies per status, for the API explorer and the tests: the success statuses with the
   * presenter's zod schema (null: no body, as a 204), and any error status whose body differs from the
   * family's (server/rest/error-schemas.ts) or that the family does not list for every route (409, 422).
   */
  responses?: ResponseSchemas;
  /** Examples for the explorer: a request body, query values, response bodies per status (checked against their schemas by the tests). */
  examples?: RouteExamples;
  /** Paginated list: page and limit are parsed and capped (maxLimit overrides the family's). */
  paginated?: { maxLimit?: number };
  /** Route-specific 400 bodies (complete_order has its own shapes). */
  invalidJsonBody?: unknown;
  validationErrorBody?: (fields: FieldErrors, pharmacy: ScopedPharmacy | null) => unknown;
  refusedBody?: (error: BadRequestError) => unknown;
  handle(ctx: Context<z.output<Q>, z.output<B>>): Promise<Reply>;
};

/** An event a family's subscriptions deliver, for the OpenAPI document's `webhooks`: the whole body sent, and an example of it. */
export type WebhookDoc = { event: string; summary: string; payload: z.ZodType; example: unknown };

/** declaredAt: the stack at the route() call (not enumerable), for the route index (scripts/route-index.ts). */
export type Route = RouteDef<AnySchema, AnySchema> & { readonly declaredAt?: { stack?: string } };
