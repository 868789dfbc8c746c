import pkg from "@/package.json";
import { pingDatabase } from "@/server/domain/health";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";

/** GET …/health/ of every family: needs a valid key of the family; reports the database check. */
export const healthRoute = route({
  method: "GET",
  path: "/health",
  summary: "Service health: status, version and a database check",
  pharmacyScope: "optional",
  async handle({}) {
    const database = await pingDatabase();
    if (!database.up) return reply(503, { status: "error", version: pkg.version, database: { status: "unavailable" } });
    return reply(200, { status: "ok", version: pkg.version, database: { status: "ok", latency_ms: database.latencyMs } });
  },
});
