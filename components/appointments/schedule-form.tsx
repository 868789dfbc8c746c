"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { useFieldArray } from "react-hook-form";
import { z } from "zod";
import { useSettled } from "@/components/admin/catalogue/shared";
import { Button, TextField } from "@/components/ui/controls";
import { Field, FormError, inputClass, SubmitOrCancel, submitWith, useZodForm, type AnyForm } from "@/components/ui/form";
import { dayInZone, unixToZoned, zonedToUnix } from "@/components/ui/format";
import { REMINDER_LIMITS, REMINDER_RECIPIENT_ROLES } from "@/server/domain/meetings/statuses";
import { reminderInput, scheduleAppointmentInput } from "@/server/trpc/routers/appointments.schemas";
import { useAppointmentProcedures, type AppointmentDoor, type PatientChoice } from "./procedures";

type Translate = ReturnType<typeof useTranslations<"appointments">>;

/** Whole minutes as typed, read as a number for the procedure's schema (the domain checks the range). */
export const typedMinutes = (t: Translate) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, t("form.wholeMinutes"))
    .transform(Number);

/** A start as typed in a datetime-local input, in the user's time zone, sent as Unix seconds. */
export const typedStart = (t: Translate, zone: string) =>
  z
    .string()
    .refine((value) => zonedToUnix(value, zone) !== undefined, t("form.enterStart"))
    .transform((value) => zonedToUnix(value, zone)!);

/** The procedure's input as the form holds it: times and minutes as typed, a doctor to choose in the admin tool. */
function scheduleSchema(t: Translate, zone: string, door: AppointmentDoor) {
  return z.object({
    patientProfileUid: z.string().min(1, t("schedule.choosePatient")),
    doctorUid: door === "admin" ? z.string().min(1, t("schedule.chooseDoctor")) : z.string(),
    startsAt: typedStart(t, zone),
    durationMinutes: typedMinutes(t).pipe(scheduleAppointmentInput.shape.durationMinutes),
    reminders: z.array(z.object({ recipientRole: reminderInput.shape.recipientRole, minutesBefore: typedMinutes(t).pipe(reminderInput.shape.minutesBefore) })),
  });
}

/** The next full hour when booking for today, else 09:00 on the day shown. */
function defaultStart(day: string, zone: string): string {
  const now = Date.now() / 1000;
  return dayInZone(now, zone) === day ? unixToZoned(Math.ceil(now / 3600) * 3600, zone).slice(0, 16) : `${day}T09:00`;
}

/**
 * "Schedule appointment": the patient (found by a part of their name or e-mail), in the admin tool
 * the doctor, the start (in the user's time zone), the length and any reminders (to whom, how many
 * minutes before). The server books it confirmed with its reminders and the meeting's event.
 */
export function ScheduleForm({
  door,
  day,
  zone,
  doctorUid,
  onCancel,
  onDone,
}: {
  door: AppointmentDoor;
  day: string;
  zone: string;
  doctorUid: string | undefined;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const t = useTranslations("appointments");
  const procedures = useAppointmentProcedures(door);
  const queryClient = useQueryClient();
  const schema = useMemo(() => scheduleSchema(t, zone, door), [t, zone, door]);
  const form = useZodForm(schema, { patientProfileUid: "", doctorUid: doctorUid ?? "", startsAt: defaultStart(day, zone), durationMinutes: "30", reminders: [] });
  const reminders = useFieldArray({ control: form.control, name: "reminders" });
  const doctors = useQuery(procedures.doctors.queryOptions(undefined, { enabled: door === "admin" }));
  const schedule = useMutation(procedures.schedule.mutationOptions());
  const [patientName, setPatientName] = useState("");

  const submit = submitWith(
    form,
    (values) => schedule.mutateAsync({ ...values, doctorUid: values.doctorUid || undefined }),
    async () => {
      await queryClient.invalidateQueries({ queryKey: procedures.pathKey() });
      onDone(t("schedule.done", { patient: patientName }));
    },
  );

  return (
    <form onSubmit={submit} noValidate aria-labelledby="schedule-heading" className="space-y-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:p-5">
      <h2 id="schedule-heading" className="text-sm font-semibold text-slate-900">
        {t("schedule.heading")}
      </h2>
      <PatientPicker door={door} form={form} onPicked={setPatientName} />
      <div className="grid gap-4 sm:grid-cols-2">
        {door === "admin" ? (
          <Field form={form} name="doctorUid" label={t("form.doctor")}>
            {(control) => (
              <select {...form.register("doctorUid")} {...control} className={inputClass}>
                <option value="">{t("schedule.chooseDoctorOption")}</option>
                {(doctors.data ?? []).map((d) => (
                  <option key={d.uid} value={d.uid}>
                    {d.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field form={form} name="startsAt" label={t("form.start")} type="datetime-local" step="any" hint={t("timesIn", { zone })} />
        <Field form={form} name="durationMinutes" label={t("form.duration")} inputMode="numeric" />
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">{t("reminders.legend")}</legend>
        {reminders.fields.length === 0 ? <p className="text-xs text-slate-500">{t("reminders.none")}</p> : null}
        {reminders.fields.map((reminder, i) => (
          <div key={reminder.id} className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
            <Field form={form} name={`reminders.${i}.recipientRole`} label={t("reminders.recipient", { n: i + 1 })}>
              {(control) => (
                <select {...form.register(`reminders.${i}.recipientRole`)} {...control} className={inputClass}>
                  {REMINDER_RECIPIENT_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(`reminders.roles.${role}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field form={form} name={`reminders.${i}.minutesBefore`} label={t("reminders.minutesBefore", { n: i + 1 })} inputMode="numeric" />
            <Button tone="secondary" className="justify-self-start" aria-label={t("reminders.removeNamed", { n: i + 1 })} onClick={() => reminders.remove(i)}>
              {t("reminders.remove")}
            </Button>
          </div>
        ))}
        <Button tone="secondary" disabled={reminders.fields.length >= REMINDER_LIMITS.count} onClick={() => reminders.append({ recipientRole: "patient", minutesBefore: "60" })}>
          {t("reminders.add")}
        </Button>
        <p className="text-xs text-slate-500">{t("reminders.hint")}</p>
      </fieldset>

      <FormError form={form} />
      <SubmitOrCancel form={form} onCancel={onCancel}>
        {t("schedule.submit")}
      </SubmitOrCancel>
    </form>
  );
}

type PickerForm = AnyForm<z.input<ReturnType<typeof scheduleSchema>>>;

/**
 * The patient: a search box (a part of the name or e-mail) and the matches to choose from. The
 * patient chosen stays among the choices while the search changes.
 */
function PatientPicker({ door, form, onPicked }: { door: AppointmentDoor; form: PickerForm; onPicked: (name: string) => void }) {
  const t = useTranslations("appointments");
  const procedures = useAppointmentProcedures(door);
  const [text, setText] = useState("");
  const search = useSettled(text.trim());
  const matches = useQuery(procedures.patients.queryOptions({ search: search || undefined }, { placeholderData: keepPreviousData }));
  const [picked, setPicked] = useState<PatientChoice | null>(null);
  const choices = [...(picked ? [picked] : []), ...(matches.data ?? []).filter((p) => p.uid !== picked?.uid)];
  const label = (p: PatientChoice) => (p.email ? t("schedule.patientOption", { name: p.name, email: p.email }) : p.name);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label={t("schedule.findPatient")} type="search" value={text} maxLength={100} hint={t("schedule.findPatientHint")} onChange={(e) => setText(e.target.value)} />
      <Field form={form} name="patientProfileUid" label={t("form.patient")} hint={matches.data && matches.data.length === 0 ? t("schedule.noPatientFound") : undefined}>
        {(control) => (
          <select
            {...form.register("patientProfileUid", {
              onChange: (e: { target: { value: string } }) => {
                const choice = choices.find((p) => p.uid === e.target.value) ?? null;
                setPicked(choice);
                onPicked(choice?.name ?? "");
              },
            })}
            {...control}
            className={inputClass}
          >
            <option value="">{t("schedule.choosePatientOption")}</option>
            {choices.map((p) => (
              <option key={p.uid} value={p.uid}>
                {label(p)}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
