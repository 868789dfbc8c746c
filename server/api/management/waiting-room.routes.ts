import { cancelWaitingRoomEntry } from "@/server/domain/meetings/cancel-waiting-room-entry";
import { registerInWaitingRoom } from "@/server/domain/meetings/register-in-waiting-room";
import { getWaitingRoomStatus } from "@/server/domain/meetings/waiting-room-queries";
import { route } from "@/server/rest/kit";
import { managementExamples as examples } from "./examples";
import { reply } from "@/server/rest/responses";
import { conflictErrorSchema } from "@/server/rest/error-schemas";
import {
  presentRegistration,
  presentWaitingRoomStatus,
  registrationSchema,
  waitingRoomCancelledSchema,
  waitingRoomStatusSchema,
} from "./waiting-room.presenters";
import { registerBody } from "./waiting-room.schemas";

export const waitingRoomRoutes = [
  route({
    method: "POST",
    path: "/waiting-room/register",
    examples: {
      body: { shop_uid: "5b2e4c1d-7a3f-4e8b-9c0d-1e2f3a4b5c6d", patient_profile_uid: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a", visit_reason: "Repeat prescription" },
      responses: { 201: examples.registration },
    },
    responses: { 200: registrationSchema, 201: registrationSchema },
    summary: "Put a patient in the waiting room (201); a patient already waiting or with a doctor gets that entry (200)",
    permission: "waiting_room:write",
    body: registerBody,
    async handle({ principal, body }) {
      const { standing, created } = await registerInWaitingRoom(principal.organisationId, {
        shopId: body.shop_uid,
        patientId: body.patient_profile_uid,
        preferredDoctorId: body.preferred_doctor_uid,
        visitReason: body.visit_reason,
      });
      return reply(created ? 201 : 200, presentRegistration(standing));
    },
  }),
  route({
    method: "GET",
    path: "/waiting-room/:queue_uid/status",
    examples: { responses: { 200: examples.waitingRoomStatus } },
    responses: { 200: waitingRoomStatusSchema },
    summary: "Status of a waiting-room entry: position and estimated wait while waiting; video room once allocated",
    permission: "waiting_room:read",
    async handle({ principal, params }) {
      return reply(200, presentWaitingRoomStatus(await getWaitingRoomStatus(principal.organisationId, params.queue_uid)));
    },
  }),
  route({
    method: "DELETE",
    path: "/waiting-room/:queue_uid",
    responses: { 200: waitingRoomCancelledSchema, 409: conflictErrorSchema },
    summary: "Cancel a registration (waiting or allocated; again: the same answer; a completed one: 409)",
    permission: "waiting_room:write",
    successStatus: 200,
    async handle({ principal, params }) {
      await cancelWaitingRoomEntry(principal.organisationId, params.queue_uid);
      return reply(200, { message: "The waiting room registration is cancelled." });
    },
  }),
];
