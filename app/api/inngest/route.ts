import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { inngest, inngestFunctions } from "@/server/jobs/inngest";
import { jobsProvider } from "@/server/jobs/provider";
import { withApiHeaders } from "@/server/http/security-headers";
import { notFoundPage } from "@/server/rest/responses";

/**
 * The endpoint Inngest calls to sync and run this app's functions (server/jobs/inngest.ts).
 * Requests are verified with INNGEST_SIGNING_KEY unless the SDK runs against a dev server. Without
 * Inngest settings the jobs run in-process (server/jobs/embedded-runner.ts) and this path is a 404.
 */
export const dynamic = "force-dynamic";

const inngestHandler = serve({ client: inngest, functions: inngestFunctions });

const handle =
  (method: "GET" | "POST" | "PUT") =>
    withApiHeaders((request: NextRequest, context: unknown): Promise<Response> | Response =>
      jobsProvider().servesInngestEndpoint ? inngestHandler[method](request, context) : notFoundPage(new URL(request.url).pathname),
    );

export const GET = handle("GET");
export const POST = handle("POST");
export const PUT = handle("PUT");
