import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import pkg from "@/package.json";
import type { Family, Route } from "./types";
import { paginationQuery } from "@/server/wire/schemas";

/**
 * The OpenAPI 3.1 document of a family, generated from its route table (the same zod schemas that
 * validate requests), and the Swagger UI explorer that shows it at {basePath}/apidocs.
 */

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, any>;

const successStatus = (route: Route) => route.successStatus ?? (route.method === "POST" ? 201 : route.method === "DELETE" ? 204 : 200);

function queryParameters(route: Route, family: Family) {
  const shapes: Record<string, z.ZodType>[] = [];
  if (route.paginated) shapes.push(paginationQuery(route.paginated.maxLimit ?? family.maxLimit));
  if (route.query) shapes.push((route.query as unknown as z.ZodObject).shape);
  return shapes.flatMap((shape) =>
    Object.entries(shape).map(([name, schema]) => {
      const s = jsonSchema(schema);
      return { name, in: "query", required: false, schema: { type: "string", ...(s.description ? { description: s.description } : {}) } };
    }),
  );
}

/** A form route's fields are sent as multipart or url-encoded form data, every other body as JSON. */
function requestBodyContent(route: Route) {
  const schema = jsonSchema(route.body!);
  if (route.bodyFormat !== "form") return { "application/json": { schema } };
  return { "multipart/form-data": { schema }, "application/x-www-form-urlencoded": { schema } };
}

function openApiDocument(family: Family, routes: Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const pathKey = family.basePath + route.path.replace(/:(\w+)/g, "{$1}") + "/";
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const responses: Record<string, unknown> = {
      [successStatus(route)]: { description: "Success" },
      400: { description: "Validation error, missing parameters or invalid body" },
      401: { description: "Missing or invalid API key" },
      404: { description: "Not found or not accessible" },
      429: { description: "Rate limit exceeded (text/html)" },
    };
    if (route.permission) responses[403] = { description: `Needs the permission ${route.permission}` };
    paths[pathKey] ??= {};
    paths[pathKey][route.method.toLowerCase()] = {
      summary: route.summary,
      ...(route.permission ? { description: `Permission: \`${route.permission}\`` } : {}),
      parameters: [...pathParams, ...queryParameters(route, family)],
      ...(route.body ? { requestBody: { required: true, content: requestBodyContent(route) } } : {}),
      ...(route.acceptsPatientToken && family.patientTokenHeader ? { security: [{ ApiKey: [] }, { PatientToken: [] }] } : {}),
      responses,
    };
  }
  const securitySchemes: Record<string, unknown> = { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } };
  if (family.legacyAuthHeaders) securitySchemes.Bearer = { type: "http", scheme: "bearer" };
  if (family.patientTokenHeader) {
    securitySchemes.PatientToken = {
      type: "apiKey",
      in: "header",
      name: family.patientTokenHeader,
      description: "A patient token: an HS256 JWT minted by your backend with a patient token secret (kid in the JOSE header).",
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: `${family.title} API`, version: pkg.version },
    paths,
    components: { securitySchemes },
    // Patient tokens only where a route accepts them (its own security above).
    security: Object.keys(securitySchemes).filter((name) => name !== "PatientToken").map((name) => ({ [name]: [] })),
  };
}

const ASSETS = new Set(["swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "favicon-32x32.png"]);
const ASSET_TYPES: Record<string, string> = { ".css": "text/css", ".js": "text/javascript", ".png": "image/png" };

/** Serves the explorer page, the document and Swagger UI's own files; null for any other path. */
export async function serveApiDocs(family: Family, routes: Route[], subPath: string[]): Promise<Response | null> {
  if (subPath[0] !== "apidocs") return null;
  const docsBase = `${family.basePath}/apidocs`;
  if (subPath.length === 1) {
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${family.title} API explorer</title>
<link rel="stylesheet" href="${docsBase}/swagger-ui.css"><link rel="icon" href="${docsBase}/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="${docsBase}/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: "${docsBase}/openapi.json", dom_id: "#swagger-ui", deepLinking: true });</script>
</body></html>`;
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  }
  if (subPath.length !== 2) return null;
  if (subPath[1] === "openapi.json") return Response.json(openApiDocument(family, routes));
  if (!ASSETS.has(subPath[1])) return null;
  const file = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "swagger-ui-dist", subPath[1]);
  return new Response(await readFile(file), {
    headers: { "content-type": ASSET_TYPES[path.extname(file)], "cache-control": "public, max-age=86400" },
  });
}
