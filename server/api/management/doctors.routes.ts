import { getDoctorStatistics, listDoctors } from "@/server/domain/doctors/queries";
import { route } from "@/server/rest/kit";
import { managementExamples as examples } from "./examples";
import { reply } from "@/server/rest/responses";
import { paginated, paginatedSchema } from "@/server/wire/format";
import { fromUnixSeconds, toUnixSecondsInclusive } from "@/server/wire/schemas";
import { doctorSchema, doctorStatisticsSchema, presentDoctor, presentDoctorStatistics } from "./doctor.presenters";
import { requireParameters, statisticsQuery } from "./doctors.schemas";

export const doctorRoutes = [
  route({
    method: "GET",
    path: "/doctors",
    examples: { responses: { 200: examples.doctors } },
    responses: { 200: paginatedSchema(doctorSchema) },
    summary: "List the organisation's doctors by name",
    permission: "doctor:read",
    paginated: {},
    async handle({ principal, page }) {
      const { items, total } = await listDoctors(principal.organisationId, page);
      return reply(200, paginated(items.map(presentDoctor), total, page));
    },
  }),
  route({
    method: "GET",
    path: "/doctors/:doctor_uid/statistics",
    responses: { 200: doctorStatisticsSchema },
    summary: "A doctor's prescriptions signed, declined and pending, and completed waiting-room consultations; from and to required (Unix seconds, inclusive)",
    permission: "doctor_statistics:read",
    query: statisticsQuery,
    async handle({ principal, params, query }) {
      const range = requireParameters(query, ["from", "to"]);
      const stats = await getDoctorStatistics(principal.organisationId, params.doctor_uid, {
        from: fromUnixSeconds(range.from)!,
        to: toUnixSecondsInclusive(range.to)!,
      });
      return reply(200, presentDoctorStatistics(stats));
    },
  }),
];
