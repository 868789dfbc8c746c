"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { TextAreaControl } from "@/components/admin/doctor/text-area-field";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Field, FormError, submitWith, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import { cancelAppointmentInput } from "@/server/trpc/routers/appointments.schemas";
import { useAppointmentProcedures, type Appointment, type AppointmentDoor } from "./procedures";

/**
 * "Cancel appointment": asks once, naming the patient and the time and what follows (no reminders,
 * the meeting's cancelled event), and takes the reason (required) in the same dialog; a refusal (no
 * reason) keeps the dialog open with the message beside the reason.
 */
export function CancelAppointment({ door, appointment, zone, onDone }: { door: AppointmentDoor; appointment: Appointment; zone: string; onDone: () => void }) {
  const t = useTranslations("appointments.cancel");
  const format = useFormat();
  const procedures = useAppointmentProcedures(door);
  const queryClient = useQueryClient();
  const form = useZodForm(cancelAppointmentInput, { appointmentUid: appointment.uid, reason: "" });
  const cancel = useMutation(procedures.cancel.mutationOptions());
  const when = format.dateTimeIn(appointment.startsAt, zone);
  const confirm = async () => {
    let cancelled = false;
    await submitWith(form, cancel.mutateAsync, () => {
      cancelled = true;
    })();
    if (!cancelled) return false;
    onDone();
    await queryClient.invalidateQueries({ queryKey: procedures.pathKey() });
    return true;
  };
  return (
    <ConfirmButton
      buttonLabel={t("openFor", { patient: appointment.patient.name, when })}
      title={t("title", { patient: appointment.patient.name, when })}
      confirmLabel={t("confirm")}
      pendingLabel={t("cancelling")}
      onConfirm={confirm}
      consequence={
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
          className="space-y-3"
        >
          <p>{t("consequence")}</p>
          <Field form={form} name="reason" label={t("reason")} hint={t("reasonHint")}>
            {(control) => <TextAreaControl {...control} required {...form.register("reason")} />}
          </Field>
          <FormError form={form} />
        </form>
      }
    >
      {t("open")}
    </ConfirmButton>
  );
}
