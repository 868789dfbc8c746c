import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import pkg from "@/package.json";
import { config } from "@/server/config";
import { apiSecurityHeaders, explorerSecurityHeaders } from "@/server/http/security-headers";
import { paginationQuery } from "@/server/wire/schemas";
import { authErrorSchema, standardErrorSchema, validationErrorSchema } from "./error-schemas";
import type { Family, Route, WebhookDoc } from "./types";

/**
 * The OpenAPI 3.1 document of a family, generated from its route table: the query and body schemas
 * that validate requests, the presenters' schemas that the routes declare per status, the family's
 * error bodies, its security schemes and the routes' examples. Swagger UI shows it at {basePath}/apidocs.
 */

type JsonSchema = Record<string, any>;

/**
 * zod's own JSON Schema conversion (draft 2020-12, the dialect of OpenAPI 3.1). Requests are shown as
 * sent ("input": a query's Unix seconds are digits, defaults make a field optional), responses as
 * presented ("output"); checks zod cannot express (refinements) are left to the descriptions.
 */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The documented success status when a route declares no responses (default: 201 for POST, 204 for DELETE, else 200). */
const successStatus = (route: Route) => route.successStatus ?? (route.method === "POST" ? 201 : route.method === "DELETE" ? 204 : 200);

/**
 * One documented response: its JSON body's schema (null: no body) and whether an HTML page may come
 * instead; `shared` names a family-wide error response, shown once under components.responses.
 */
export type DocumentedResponse = { description: string; json: z.ZodType | null; html?: true; shared?: string };

const SHARED_NAMES: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "PermissionDenied",
  404: "NotFound",
  405: "MethodNotAllowed",
  413: "PayloadTooLarge",
  429: "TooManyRequests",
  500: "InternalServerError",
  503: "ServiceUnavailable",
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No content",
  400: "Validation error, missing parameters, invalid body or a refused request",
  401: "Missing or invalid authentication",
  403: "Valid authentication, insufficient permission",
  404: "Resource does not exist or is not accessible (JSON); an unknown path answers an HTML page",
  405: "Method not allowed for this path (HTML page, with Allow)",
  409: "Conflict, duplicate resource",
  413: "Request body above the 32 MiB cap",
  422: "Well-formed request with invalid data",
  429: "Rate limit exceeded (HTML page, no Retry-After): wait at least one second and retry",
  500: "Internal server error (a fault of the service, logged)",
  502: "The shop's platform (its Shopify store) refused the call; nothing was kept",
  503: "The service is busy (or, on health, the database is unavailable; on a reservation or checkout of a Shopify shop, the store could not be reached); retry in a moment",
};

/**
 * Every response a route may answer, by status: what the route declares (its success bodies, and
 * error bodies of its own), then the family's error bodies. The tests check real answers against it.
 */
export function documentedResponses(family: Family, route: Route): Record<number, DocumentedResponse> {
  const doc = (status: number, json: z.ZodType | null, html?: true): DocumentedResponse => ({
    description: STATUS_TEXT[status] ?? `Status ${status}`,
    json,
    ...(html ? { html } : {}),
  });
  const shared = (status: number, json: z.ZodType | null, html?: true): DocumentedResponse => ({ ...doc(status, json, html), shared: SHARED_NAMES[status] });
  const out: Record<number, DocumentedResponse> = {};
  if (!route.responses) out[successStatus(route)] = { description: "Success (body not documented)", json: null };
  const invalid = z.union([family.errorSchemas.refused, validationErrorSchema]);
  out[400] = shared(400, invalid);
  out[401] = shared(401, authErrorSchema);
  if (route.permission) out[403] = shared(403, family.errorSchemas.permissionDenied);
  out[404] = shared(404, standardErrorSchema, true);
  out[405] = shared(405, null, true);
  if (route.body) out[413] = shared(413, standardErrorSchema);
  out[429] = shared(429, null, true);
  out[500] = shared(500, standardErrorSchema);
  out[503] = shared(503, standardErrorSchema);
  for (const [status, schema] of Object.entries(route.responses ?? {})) out[Number(status)] = doc(Number(status), schema);
  return out;
}

function queryParameters(route: Route, family: Family) {
  const objects: z.ZodType[] = [];
  if (route.paginated) objects.push(z.object(paginationQuery(route.paginated.maxLimit ?? family.maxLimit)));
  if (route.query) objects.push(route.query);
  return objects.flatMap((object) => {
    // Typed as parsed (digits become integers), required as sent (a default makes a parameter optional).
    const input = jsonSchema(object, "input");
    const output = jsonSchema(object, "output");
    const required = new Set<string>(input.required ?? []);
    return Object.entries<JsonSchema>(output.properties ?? {}).map(([name, schema]) => {
      // x-required: a parameter the route itself requires (its own message), though the schema lets it through.
      const { "x-required": forced, description, ...typed } = schema;
      // A list in a query is sent comma-separated (the one such parameter, prescription_uids), which
      // OpenAPI spells style form, explode false; its example is then the list, not the sent text.
      const commaSeparated = typed.type === "array";
      const sent = route.examples?.query?.[name];
      const example = commaSeparated && sent !== undefined ? sent.split(",") : sent;
      return {
        name,
        in: "query",
        required: required.has(name) || forced === true,
        ...(description ? { description } : {}),
        schema: typed,
        ...(commaSeparated ? { style: "form", explode: false } : {}),
        ...(example !== undefined ? { example } : {}),
      };
    });
  });
}

/** A form route's body is sent as multipart or url-encoded form data, every other body as JSON. */
const FORM_MEDIA_TYPES = ["multipart/form-data", "application/x-www-form-urlencoded"];

function content(schema: z.ZodType | null, html: boolean | undefined, example: unknown, io: "input" | "output", form = false) {
  const media: Record<string, unknown> = {};
  if (schema) {
    const shown = { schema: jsonSchema(schema, io), ...(example !== undefined ? { example } : {}) };
    for (const type of form ? FORM_MEDIA_TYPES : ["application/json"]) media[type] = shown;
  }
  if (html) media["text/html"] = { schema: { type: "string" } };
  return Object.keys(media).length > 0 ? { content: media } : {};
}

const operationId = (route: Route) =>
  route.method.toLowerCase() + route.path.replace(/:(\w+)/g, "by_$1").replace(/[^a-zA-Z0-9]+/g, "_").replace(/_$/, "");

/** The security schemes a family accepts; any one of them authenticates a request. */
export function securitySchemes(family: Family): Record<string, Record<string, string>> {
  const schemes: Record<string, Record<string, string>> = {
    ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "The API key (every family)." },
  };
  if (family.legacyAuthHeaders) {
    schemes.ServiceAuthorization = {
      type: "apiKey",
      in: "header",
      name: "X-Service-Authorization",
      description: "The API key in the legacy header (Public API only; new integrations use X-API-Key).",
    };
    schemes.Bearer = { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key> (Public API only)." };
  }
  if (family.patientTokenHeader) {
    schemes.PatientToken = {
      type: "apiKey",
      in: "header",
      name: family.patientTokenHeader,
      description: `A short-lived patient token (JWT, HS256, kid of an organisation secret) minted by the partner's backend; never in a URL. The alternatives are exclusive: a request with both X-API-Key and ${family.patientTokenHeader} is refused (401 invalid_header).`,
    };
  }
  return schemes;
}

/**
 * OpenAPI links from each create to its read, so a stateful client can follow them: a POST whose
 * success body has a `uid`, and a GET of the same path plus one `{…}` segment (not an external id),
 * get `$response.body#/uid` as that parameter (the create's own path parameters as sent).
 */
function addReadLinks(family: Family, routes: Route[], paths: Record<string, Record<string, any>>): void {
  for (const create of routes.filter((r) => r.method === "POST")) {
    const status = successStatus(create);
    const body = create.responses?.[status];
    if (!body || !jsonSchema(body, "output").properties?.uid) continue;
    const read = routes.find((r) => r.method === "GET" && new RegExp(`^${create.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/:(\\w+)$`).test(r.path));
    if (!read) continue;
    const [, parameter] = /\/:(\w+)$/.exec(read.path)!;
    // A read by the integrator's own id (external_id, a shop's identifier) is not reached by the uid.
    if (/external|identifier/.test(parameter)) continue;
    const fromRequest = [...create.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, `$request.path.${name}`]);
    const operation = paths[family.basePath + create.path.replace(/:(\w+)/g, "{$1}") + "/"]?.post;
    const response = operation?.responses?.[status];
    if (!response || "$ref" in response) continue;
    response.links = { [`read_${parameter}`]: { operationId: operationId(read), parameters: { ...Object.fromEntries(fromRequest), [parameter]: "$response.body#/uid" }, description: `The ${parameter} of the created resource` } };
  }
}

/**
 * OpenAPI 3.1's `webhooks`: each event the family's subscriptions deliver, as the POST the service
 * makes to a target (the body, its example, the headers a receiver checks).
 */
function webhookOperations(webhooks: WebhookDoc[]) {
  const header = (name: string, description: string, required = true) => ({ name, in: "header", required, description, schema: { type: "string" } });
  return Object.fromEntries(
    webhooks.map((w) => [
      w.event,
      {
        post: {
          operationId: `webhook_${w.event}`,
          summary: w.summary,
          description: "Delivered to the targets of subscriptions of this notification_type: 5 attempts, 30 s each, growing delays; any 2xx acknowledges.",
          parameters: [
            header("X-Webhook-Signature", "HMAC-SHA256 of the raw body, key: the subscription's webhook_secret as UTF-8; lowercase hex", false),
            header("X-Webhook-Event", "The event type, as event_type in the body"),
            header("X-Webhook-Test", "true on test deliveries only", false),
          ],
          requestBody: { required: true, content: { "application/json": { schema: jsonSchema(w.payload, "output"), example: w.example } } },
          responses: { "2XX": { description: "Acknowledged; any other answer (or none within 30 s) is a failed attempt" } },
        },
      },
    ]),
  );
}

export function openApiDocument(family: Family, routes: Route[], webhooks: WebhookDoc[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  // The family's error responses, the same on every operation: once, referenced by each.
  const sharedResponses: Record<string, unknown> = {};
  for (const route of routes) {
    const pathKey = family.basePath + route.path.replace(/:(\w+)/g, "{$1}") + "/";
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      ...(route.pathParams?.[name] ? { description: route.pathParams[name] } : {}),
      schema: { type: "string" },
    }));
    const responses = Object.fromEntries(
      Object.entries(documentedResponses(family, route)).map(([status, r]) => {
        const shown = { description: r.description, ...content(r.json, r.html, route.examples?.responses?.[Number(status)], "output") };
        if (!r.shared) return [status, shown];
        sharedResponses[r.shared] ??= shown;
        return [status, { $ref: `#/components/responses/${r.shared}` }];
      }),
    );
    paths[pathKey] ??= {};
    paths[pathKey][route.method.toLowerCase()] = {
      operationId: operationId(route),
      tags: [route.path.split("/")[1]],
      summary: route.summary,
      ...(route.permission ? { description: `Permission: \`${route.permission}\`` } : {}),
      parameters: [...pathParams, ...queryParameters(route, family)],
      ...(route.body
        ? {
            requestBody: {
              required: !route.body.safeParse(undefined).success,
              ...content(route.body, false, route.examples?.body, "input", route.bodyFormat === "form"),
            },
          }
        : {}),
      // Patient tokens only where a route accepts them (the document's default security leaves them out).
      ...(route.acceptsPatientToken && family.patientTokenHeader ? { security: [{ ApiKey: [] }, { PatientToken: [] }] } : {}),
      responses,
    };
  }
  addReadLinks(family, routes, paths);
  const schemes = securitySchemes(family);
  return {
    openapi: "3.1.0",
    info: {
      title: `${family.title} API`,
      version: pkg.version,
      description:
        "Timestamps are integer Unix seconds, amounts integer minor units. Lists take page (from 0) and limit " +
        `(default 50, at most ${family.maxLimit}; a larger limit is capped). Branch on the status before parsing the body: ` +
        "the 404 of an unknown path, the 405 and the 429 are HTML pages. Text is Unicode that PostgreSQL can store: " +
        "a NUL character or an unpaired surrogate in any string of a body or query is refused with 400.",
    },
    // Generated clients and explorers need the base URL; the paths carry the family's prefix.
    // Unset, the document names no host: a client resolves "/" against where it read the document.
    servers: [
      config().PUBLIC_BASE_URL
        ? { url: config().PUBLIC_BASE_URL, description: "This service (PUBLIC_BASE_URL)" }
        : { url: "/", description: "The server this document was read from (PUBLIC_BASE_URL names it)" },
    ],
    paths,
    ...(webhooks.length > 0 ? { webhooks: webhookOperations(webhooks) } : {}),
    components: { responses: sharedResponses, securitySchemes: schemes },
    security: Object.keys(schemes).filter((name) => name !== "PatientToken").map((name) => ({ [name]: [] })),
  };
}

const ASSETS = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "favicon-32x32.png"]);
const ASSET_TYPES: Record<string, string> = { ".css": "text/css", ".js": "text/javascript", ".png": "image/png" };

/**
 * Serves the explorer page, the script that starts Swagger UI, the document and Swagger UI's own
 * files; null for any other path. The page runs no inline script: its policy allows only files of
 * this origin (server/http/security-headers.ts).
 */
export async function serveApiDocs(family: Family, routes: Route[], subPath: string[], webhooks: WebhookDoc[] = []): Promise<Response | null> {
  if (subPath[0] !== "apidocs") return null;
  const docsBase = `${family.basePath}/apidocs`;
  if (subPath.length === 1) {
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${family.title} API explorer</title>
<link rel="stylesheet" href="${docsBase}/swagger-ui.css"><link rel="icon" href="${docsBase}/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="${docsBase}/swagger-ui-bundle.js"></script>
<script src="${docsBase}/explorer.js"></script>
</body></html>`;
    return new Response(html, { headers: { ...explorerSecurityHeaders(), "content-type": "text/html; charset=utf-8" } });
  }
  if (subPath.length !== 2) return null;
  const headers = apiSecurityHeaders();
  if (subPath[1] === "openapi.json") return Response.json(documentOf(family, routes, webhooks), { headers });
  if (subPath[1] === "explorer.js") {
    const script = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${docsBase}/openapi.json`)}, dom_id: "#swagger-ui", deepLinking: true });\n`;
    return new Response(script, { headers: { ...headers, "content-type": "text/javascript; charset=utf-8" } });
  }
  if (!ASSETS.has(subPath[1])) return null;
  const file = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "swagger-ui-dist", subPath[1]);
  return new Response(await readFile(file), {
    headers: { ...headers, "content-type": ASSET_TYPES[path.extname(file)], "cache-control": "public, max-age=86400" },
  });
}

// Built once per family on first request, and again only when the configured base URL (its server) changed.
const documents = new WeakMap<Route[], { baseUrl: string; document: unknown }>();
function documentOf(family: Family, routes: Route[], webhooks: WebhookDoc[]) {
  const { baseUrl } = config();
  let built = documents.get(routes);
  if (built?.baseUrl !== baseUrl) documents.set(routes, (built = { baseUrl, document: openApiDocument(family, routes, webhooks) }));
  return built.document;
}
