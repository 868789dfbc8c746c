"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "@/components/trpc/react";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>["admin"]["appointments"];
export type Appointment = Outputs["list"]["items"][number];
export type PatientChoice = Outputs["patients"][number];

/**
 * Whose calendar: the admin tool's (admin.appointments: every doctor of the organisation, a doctor
 * picked) or the doctors' workspace's (doctor.appointments: the doctor's own). One router serves
 * both (server/trpc/routers/appointments.ts): the same inputs and answers, the door's reach.
 */
export type AppointmentDoor = "admin" | "doctor";

export function useAppointmentProcedures(door: AppointmentDoor) {
  const trpc = useTRPC();
  return door === "admin" ? trpc.admin.appointments : trpc.doctor.appointments;
}
