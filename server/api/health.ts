import { z } from "zod";
import pkg from "@/package.json";
import { pingDatabase } from "@/server/domain/health";
import { standardErrorSchema } from "@/server/rest/error-schemas";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";

export const healthSchema = z.object({
  status: z.literal("ok"),
  version: z.string(),
  database: z.object({ status: z.literal("ok"), latency_ms: z.number().min(0) }),
});
export const healthUnavailableSchema = z.object({
  status: z.literal("error"),
  version: z.string(),
  database: z.object({ status: z.literal("unavailable") }),
});

/** GET …/health/ of every family: needs a valid key of the family; reports the database check. */
export const healthRoute = route({
  method: "GET",
  path: "/health",
  summary: "Service health: status, version and a database check",
  pharmacyScope: "optional",
  // 503: the database is down, or (the kit's) too busy to answer.
  responses: { 200: healthSchema, 503: z.union([healthUnavailableSchema, standardErrorSchema]) },
  async handle({}) {
    const database = await pingDatabase();
    if (!database.up) return reply(503, { status: "error", version: pkg.version, database: { status: "unavailable" } });
    return reply(200, { status: "ok", version: pkg.version, database: { status: "ok", latency_ms: database.latencyMs } });
  },
});
