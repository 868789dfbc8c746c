import { serve } from "inngest/next";
import { NextRequest } from "next/server";
import { inngest, inngestFunctions } from "@/server/jobs/inngest";
import { jobsProvider } from "@/server/jobs/provider";
import { INNGEST_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { BodyAbortedError, BodyTooLargeError, bodyTooLargeResponse, readBodyText } from "@/server/rest/body";
import { unservedMethods, withApiHeaders } from "@/server/http/security-headers";
import { notFoundPage } from "@/server/rest/responses";

/**
 * The endpoint Inngest calls to sync and run this app's functions (server/jobs/inngest.ts).
 * Requests are verified with INNGEST_SIGNING_KEY unless the SDK runs against a dev server. Without
 * Inngest settings the jobs run in-process (server/jobs/embedded-runner.ts) and this path is a 404.
 * The SDK reads a body whole: it gets one read under INNGEST_BODY_MAX_BYTES (413 beyond it).
 */
export const dynamic = "force-dynamic";

const inngestHandler = serve({ client: inngest, functions: inngestFunctions });

const handle =
  (method: "GET" | "POST" | "PUT") =>
  withApiHeaders(async (request: NextRequest, context: unknown): Promise<Response> => {
    if (!jobsProvider().servesInngestEndpoint) return notFoundPage(new URL(request.url).pathname);
    if (method === "GET") return inngestHandler.GET(request, context);
    let body: string;
    try {
      body = await readBodyText(request, INNGEST_BODY_MAX_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return bodyTooLargeResponse(INNGEST_BODY_MAX_BYTES);
      if (error instanceof BodyAbortedError) return new Response(null, { status: 400 });
      throw error;
    }
    return inngestHandler[method](new NextRequest(request.url, { method, headers: request.headers, body }), context);
  });

export const GET = handle("GET");
export const POST = handle("POST");
export const PUT = handle("PUT");

// The other methods: as Next.js answers them, with the API security headers.
const unserved = unservedMethods(["GET", "POST", "PUT"]);
export const PATCH = unserved.PATCH;
export const DELETE = unserved.DELETE;
export const OPTIONS = unserved.OPTIONS;
