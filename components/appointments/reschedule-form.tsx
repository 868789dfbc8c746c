"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { TextAreaControl } from "@/components/admin/doctor/text-area-field";
import { Field, FormError, SubmitOrCancel, submitWith, useZodForm } from "@/components/ui/form";
import { unixToZoned, useFormat } from "@/components/ui/format";
import { rescheduleAppointmentInput } from "@/server/trpc/routers/appointments.schemas";
import type { Appointment, AppointmentDoor } from "./procedures";
import { useAppointmentProcedures } from "./procedures";
import { typedMinutes, typedStart } from "./schedule-form";

type Translate = ReturnType<typeof useTranslations<"appointments">>;

function rescheduleSchema(t: Translate, zone: string) {
  return rescheduleAppointmentInput.extend({
    startsAt: typedStart(t, zone),
    durationMinutes: typedMinutes(t).pipe(rescheduleAppointmentInput.shape.durationMinutes.unwrap()),
  });
}

/**
 * Moving an appointment: the new start and length, and why (required). The server cancels this one
 * with the reason and books the new one from it, with the same reminders before the new start.
 */
export function RescheduleForm({
  door,
  appointment,
  zone,
  onCancel,
  onDone,
}: {
  door: AppointmentDoor;
  appointment: Appointment;
  zone: string;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const t = useTranslations("appointments");
  const format = useFormat();
  const procedures = useAppointmentProcedures(door);
  const queryClient = useQueryClient();
  const schema = useMemo(() => rescheduleSchema(t, zone), [t, zone]);
  const form = useZodForm(schema, {
    appointmentUid: appointment.uid,
    startsAt: unixToZoned(appointment.startsAt, zone),
    durationMinutes: String(appointment.durationMinutes ?? 30),
    reason: "",
  });
  const reschedule = useMutation(procedures.reschedule.mutationOptions());
  const submit = submitWith(form, reschedule.mutateAsync, async (_, values) => {
    await queryClient.invalidateQueries({ queryKey: procedures.pathKey() });
    onDone(t("reschedule.done", { patient: appointment.patient.name, when: format.dateTimeIn(values.startsAt, zone) }));
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t("reschedule.formLabel", { patient: appointment.patient.name })} className="space-y-3">
      <h3 className="text-sm font-semibold text-slate-900">{t("reschedule.heading", { patient: appointment.patient.name })}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field form={form} name="startsAt" label={t("reschedule.newStart")} type="datetime-local" step="any" hint={t("timesIn", { zone })} />
        <Field form={form} name="durationMinutes" label={t("form.duration")} inputMode="numeric" />
      </div>
      <Field form={form} name="reason" label={t("form.reason")} hint={t("reschedule.reasonHint")}>
        {(control) => <TextAreaControl {...control} required {...form.register("reason")} />}
      </Field>
      <FormError form={form} />
      <SubmitOrCancel form={form} onCancel={onCancel}>
        {t("reschedule.submit")}
      </SubmitOrCancel>
    </form>
  );
}
