import { z } from "zod";
import { authenticateRequestKey, hashApiKey, type ApiPrincipal } from "@/server/auth/api-keys";
import { verifyPatientToken, type PatientTokenScope } from "@/server/auth/patient-tokens";
import { isDatabaseBusy } from "@/server/db/errors";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  UnprocessableError,
  UpstreamError,
  ValidationError,
  type FieldErrors,
} from "@/server/domain/errors";
import { pharmacyInReach, type ScopedPharmacy } from "@/server/domain/pharmacies/pharmacy-scope";
import { log, loggableRequest } from "@/server/log";
import { paginationQuery } from "@/server/wire/schemas";
import type { Page } from "@/server/domain/paging";
import { toFieldErrors } from "@/server/wire/field-errors";
import { decodePathSegment, inputTextErrors } from "@/server/wire/json-input";
import { BodyAbortedError, BodyTooLargeError, declaresTooLargeBody, isJsonContentType, readBodyText, readFormBody } from "./body";
import { serveApiDocs } from "./openapi";
import { clientAddress, withinRateLimit } from "./rate-limit";
import { methodNotAllowedPage, notFoundPage, reply, toResponse, tooManyRequestsPage, type Reply } from "./responses";
import type { Context, Family, Route, RouteDef, WebhookDoc } from "./types";

type AnySchema = z.ZodType;

/** Declares a route with its schemas' types flowing into the handler. */
export function route<Q extends AnySchema = z.ZodObject<{}>, B extends AnySchema = z.ZodUndefined>(
  def: RouteDef<Q, B>,
): Route {
  const declaredAt: { stack?: string } = {};
  Error.captureStackTrace(declaredAt, route); // V8 formats the frames only if .stack is read
  return Object.defineProperty(def, "declaredAt", { value: declaredAt }) as unknown as Route;
}

type Compiled = { route: Route; segments: string[]; staticCount: number; shape: string };

function compile(route: Route): Compiled {
  const segments = route.path.split("/").filter(Boolean);
  // "1" per literal segment, "0" per parameter: of the routes that match a path, the greatest shape
  // (a literal before a parameter, from the left) is the path's own, for every method.
  const shape = segments.map((s) => (s.startsWith(":") ? "0" : "1")).join("");
  return { route, segments, staticCount: segments.filter((s) => !s.startsWith(":")).length, shape };
}

/** The routes of the one path a request names: those of the most literal shape among the matches. */
function ownPathMatches<M extends { c: Compiled }>(matches: M[]): M[] {
  const best = matches.reduce((top, m) => (m.c.shape > top ? m.c.shape : top), "");
  return matches.filter((m) => m.c.shape === best);
}

function matchPath(compiled: Compiled, parts: string[]): Record<string, string> | null {
  if (compiled.segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const pattern = compiled.segments[i];
    if (pattern.startsWith(":")) {
      const value = decodePathSegment(parts[i]);
      if (value === null) return null;
      params[pattern.slice(1)] = value;
    } else if (pattern !== parts[i]) {
      return null;
    }
  }
  return params;
}

class HttpReply extends Error {
  constructor(readonly reply: Reply | Response) {
    super("reply");
  }
}
const stop = (r: Reply | Response): never => {
  throw new HttpReply(r);
};

const authError = (code: string, description: string) => reply(401, { code, description });

type Credential = { key: string } | { patientToken: string } | { failure: Reply };

/**
 * The presented credential, following the family's header rules, or the 401 to answer when there is
 * none: X-API-Key; on the Public API also X-Service-Authorization or `Authorization: Bearer`; on a
 * family with patient tokens, the token header instead of a key (never both).
 */
function presentedCredential(family: Family, headers: Headers): Credential {
  const xApiKey = headers.get("x-api-key");
  const tokenHeader = family.patientTokenHeader;
  const token = tokenHeader ? headers.get(tokenHeader) : null;
  const expected = tokenHeader ? `X-API-Key or ${tokenHeader}` : "X-API-Key";
  if (token !== null) {
    if (xApiKey !== null) return { failure: authError("invalid_header", `Send either X-API-Key or ${tokenHeader}, not both.`) };
    const value = token.trim();
    if (!value || /\s/.test(value)) return { failure: authError("invalid_header", `The ${tokenHeader} header is malformed.`) };
    return { patientToken: value };
  }
  if (xApiKey !== null) {
    const key = xApiKey.trim();
    if (!key || /\s/.test(key)) return { failure: authError("invalid_header", "The X-API-Key header is malformed.") };
    return { key };
  }
  const authorization = headers.get("authorization");
  const legacy = headers.get("x-service-authorization");
  if (family.legacyAuthHeaders) {
    if (legacy !== null && legacy.trim()) return { key: legacy.trim() };
    if (authorization !== null) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
      if (!match) return { failure: authError("invalid_header", "The Authorization header must be 'Bearer <API key>'.") };
      return { key: match[1] };
    }
  } else if (authorization !== null || legacy !== null) {
    return { failure: authError("api_key_missing", `This API expects the key in the X-API-Key header${tokenHeader ? ` or a patient token in ${tokenHeader}` : ""}.`) };
  }
  return { failure: authError("authorization_header_missing", `No ${tokenHeader ? expected : "X-API-Key or Authorization"} header was sent.`) };
}

/**
 * The pharmacy a pharmacy-family request acts for (the domain's one rule). None where one is needed
 * is the family's refusal body on every route (spec, Errors item 2: a group key without pharmacy_uid
 * or with one outside its group).
 */
function scopedPharmacy(
  family: Family,
  principal: ApiPrincipal,
  candidate: ScopedPharmacy | null,
  requested: string | null,
  scope: "required" | "optional",
): ScopedPharmacy | null {
  if (!requested && !principal.pharmacyId && scope === "optional") return null;
  return pharmacyInReach(principal, requested, candidate) ?? stop(reply(400, family.refused(pharmacyOutOfReach())));
}

export const pharmacyOutOfReach = () =>
  new BadRequestError("The key cannot act for this pharmacy: name a pharmacy of its group with pharmacy_uid.", { code: "pharmacy_out_of_reach" });

function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (!(key in out)) out[key] = value;
  return out;
}

/** A domain error (or the kit's own) as the family's status and body. */
function errorReply(error: unknown, family: Family, route: Route | null, request?: Request): Reply {
  if (error instanceof NotFoundError) return reply(404, { error: error.message });
  if (error instanceof ValidationError) return reply(400, { error: error.fields });
  if (error instanceof BadRequestError) return reply(400, route?.refusedBody ? route.refusedBody(error) : family.refused(error));
  if (error instanceof ConflictError) return reply(409, { ...(error.code ? { code: error.code } : {}), ...error.details, error: error.message });
  if (error instanceof UnprocessableError) {
    return reply(422, error.fields ? { error: error.fields, message: error.message } : { error: error.message });
  }
  if (error instanceof UpstreamError) return reply(error.retryable ? 503 : 502, { code: error.code, error: error.message });
  if (error instanceof BodyTooLargeError) {
    // Connection: close, so the server closes the connection after the answer instead of reading
    // (and discarding) the rest of the body to keep it alive.
    return { ...reply(413, { error: "Request body too large: the limit is 32 MiB." }), headers: { connection: "close" } };
  }
  if (error instanceof BodyAbortedError) {
    // The client went away mid-upload: not a fault, and nobody reads this answer.
    log.info("request body aborted by the client", { family: family.name, ...(request ? { request: loggableRequest(request) } : {}) });
    return reply(400, family.invalidBody("json"));
  }
  if (isDatabaseBusy(error)) {
    // Overload, not a fault: nothing was committed, and the client may safely retry.
    log.warn("database busy: request refused with 503", { family: family.name });
    return reply(503, { error: "The service is busy; retry the request in a moment." });
  }
  // The request without query values or body: they may carry personal data.
  log.error("unhandled error in REST handler", { family: family.name, ...(request ? { request: loggableRequest(request) } : {}), error });
  return reply(500, { error: "Internal server error" });
}

export type RestApi = {
  family: Family;
  routes: Route[];
  /** The events the family's subscriptions deliver, as its OpenAPI document shows them. */
  webhooks: WebhookDoc[];
  handle(request: Request): Promise<Response>;
  /** The route that serves a method and path, if any (the tests check its answers against its documented responses). */
  matchRoute(method: string, pathname: string): Route | undefined;
  /** The answer to a method Next.js does not route (PROPFIND…): the HTML 405 with Allow, or the 404 of an unknown path. */
  unroutedMethod(request: Request): Response;
};

export function createRestApi(family: Family, routes: Route[], options: { webhooks?: WebhookDoc[] } = {}): RestApi {
  const webhooks = options.webhooks ?? [];
  // Static segments win over parameters ("/notification-subscriptions/test" before "/:uid").
  const compiled = routes.map(compile).sort((a, b) => b.staticCount - a.staticCount);

  async function run(route: Route, params: Record<string, string>, request: Request, url: URL): Promise<Reply> {
    const presented = presentedCredential(family, request.headers);
    const subjects = [`addr:${clientAddress(request)}`];
    // The key's hash names its rate-limit counter and finds its row: computed once.
    const keyHash = "key" in presented ? hashApiKey(presented.key) : "";
    if (keyHash) subjects.push(`key:${keyHash}`);
    // A patient token counts as a key does, by its own hash: not by its kid, which anyone who has
    // seen a token could send with garbage to exhaust the partner's budget.
    if ("patientToken" in presented) subjects.push(`token:${hashApiKey(presented.patientToken)}`);
    if (!(await withinRateLimit(subjects))) stop(tooManyRequestsPage());
    if ("failure" in presented) return presented.failure;
    if (declaresTooLargeBody(request)) throw new BodyTooLargeError();

    const rawQuery = firstValues(url.searchParams);
    // Before the key check, which already reads pharmacy_uid from the query.
    const unstorableQuery = inputTextErrors(rawQuery);
    if (unstorableQuery) return reply(400, route.validationErrorBody ? route.validationErrorBody(unstorableQuery, null) : { error: unstorableQuery });

    let principal: ApiPrincipal | null = null;
    let patientToken: PatientTokenScope | null = null;
    let pharmacy: ScopedPharmacy | null = null;
    if ("patientToken" in presented) {
      if (!route.acceptsPatientToken) return authError("api_key_missing", "This operation expects the key in the X-API-Key header.");
      const verified = await verifyPatientToken(presented.patientToken);
      if ("failure" in verified) return authError(verified.failure.code, verified.failure.description);
      patientToken = verified.scope;
    } else {
      const requestedPharmacy = family.pharmacyScoped ? (rawQuery.pharmacy_uid ?? null) : null;
      const authenticated = await authenticateRequestKey(family.keyFamily, presented.key, requestedPharmacy, keyHash);
      if (!authenticated) return authError("invalid_api_key", "The API key is unknown or no longer active.");
      principal = authenticated.principal;
      if (route.permission && !principal.permissions.has(route.permission)) {
        return reply(403, family.permissionDenied(route.permission));
      }
      pharmacy = family.pharmacyScoped
        ? scopedPharmacy(family, principal, authenticated.pharmacy, requestedPharmacy, route.pharmacyScope ?? "required")
        : null;
    }

    const validationError = (fields: FieldErrors) =>
      reply(400, route.validationErrorBody ? route.validationErrorBody(fields, pharmacy) : { error: fields });

    let page: Page = { page: 0, limit: family.maxLimit };
    if (route.paginated) {
      const parsed = z.object(paginationQuery(route.paginated.maxLimit ?? family.maxLimit)).safeParse(rawQuery);
      if (!parsed.success) return validationError(toFieldErrors(parsed.error.issues));
      page = parsed.data;
    }
    let query: unknown = {};
    if (route.query) {
      const parsed = route.query.safeParse(rawQuery);
      if (!parsed.success) return validationError(toFieldErrors(parsed.error.issues));
      query = parsed.data;
    }
    let body: unknown = undefined;
    if (route.body && route.bodyFormat === "form") {
      const form = await readFormBody(request);
      if (!form) return reply(400, family.invalidBody("form"));
      const unstorable = inputTextErrors(form);
      if (unstorable) return validationError(unstorable);
      const parsed = route.body.safeParse(form);
      if (!parsed.success) return validationError(toFieldErrors(parsed.error.issues));
      body = parsed.data;
    } else if (route.body) {
      const text = await readBodyText(request);
      // A route whose body is optional (complete_order) may be called with no body at all.
      const noBody = text.trim() === "" && !request.headers.get("content-type") && route.body.safeParse(undefined).success;
      if (!noBody && !isJsonContentType(request)) return reply(400, route.invalidJsonBody ?? family.invalidBody("content_type"));
      let json: unknown;
      try {
        json = noBody ? undefined : JSON.parse(text);
      } catch {
        return reply(400, route.invalidJsonBody ?? family.invalidBody("json"));
      }
      const unstorable = inputTextErrors(json);
      if (unstorable) return validationError(unstorable);
      const parsed = route.body.safeParse(json);
      if (!parsed.success) return validationError(toFieldErrors(parsed.error.issues));
      body = parsed.data;
    }

    const keyOnly = <T>(value: (key: ApiPrincipal) => T): T => {
      if (!principal) throw new Error(`route ${route.method} ${route.path} used the key of a patient-token request`);
      return value(principal);
    };
    const context: Context<unknown, unknown> = {
      params,
      query,
      body,
      get principal() {
        return keyOnly((key) => key);
      },
      get actor() {
        return keyOnly((key) => ({ type: "API_KEY" as const, apiKeyId: key.keyId }));
      },
      organisationId: patientToken?.organisationId ?? keyOnly((key) => key.organisationId),
      patientToken,
      page,
      get pharmacy(): ScopedPharmacy {
        if (!pharmacy) throw new Error(`route ${route.method} ${route.path} used a pharmacy it did not resolve`);
        return pharmacy;
      },
    };
    try {
      return await route.handle(context as Context<never, never>);
    } catch (error) {
      if (error instanceof ValidationError) return validationError(error.fields);
      throw error;
    }
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const isHead = request.method.toUpperCase() === "HEAD";
    const method = isHead ? "GET" : request.method.toUpperCase();
    if (url.pathname !== family.basePath && !url.pathname.startsWith(`${family.basePath}/`)) {
      return notFoundPage(url.pathname);
    }
    const parts = url.pathname.slice(family.basePath.length).split("/").filter(Boolean);
    if (method === "GET") {
      const docs = await serveApiDocs(family, routes, parts, webhooks);
      if (docs) return docs;
    }
    // A literal path (…/wallet-passes/verify) is its own for every method, never its {uid} sibling's.
    const candidates = ownPathMatches(
      compiled.map((c) => ({ c, params: matchPath(c, parts) })).filter((m): m is { c: Compiled; params: Record<string, string> } => m.params !== null),
    );
    if (candidates.length === 0) return notFoundPage(url.pathname);
    const chosen = candidates.find((m) => m.c.route.method === method);
    if (!chosen) {
      const allowed = [...new Set(candidates.map((m) => m.c.route.method))];
      return methodNotAllowedPage(request.method.toUpperCase(), allowed);
    }
    try {
      return toResponse(await run(chosen.c.route, chosen.params, request, url), isHead);
    } catch (error) {
      if (error instanceof HttpReply) return error.reply instanceof Response ? error.reply : toResponse(error.reply, isHead);
      return toResponse(errorReply(error, family, chosen.c.route, request), isHead);
    }
  }

  function unroutedMethod(request: Request): Response {
    const url = new URL(request.url);
    const parts = url.pathname.slice(family.basePath.length).split("/").filter(Boolean);
    const allowed = [...new Set(ownPathMatches(compiled.filter((c) => matchPath(c, parts)).map((c) => ({ c }))).map((m) => m.c.route.method))];
    return allowed.length === 0 ? notFoundPage(url.pathname) : methodNotAllowedPage(request.method.toUpperCase(), allowed);
  }

  function matchRoute(method: string, pathname: string): Route | undefined {
    const parts = pathname.slice(family.basePath.length).split("/").filter(Boolean);
    const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    return ownPathMatches(compiled.filter((c) => matchPath(c, parts)).map((c) => ({ c }))).find((m) => m.c.route.method === wanted)?.c.route;
  }

  return { family, routes, webhooks, handle, matchRoute, unroutedMethod };
}

/** Route module exports for a catch-all App Router route: every method goes to the REST kit. */
export function routeHandlers(api: RestApi) {
  const handler = (request: Request) => api.handle(request);
  return { GET: handler, HEAD: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}
