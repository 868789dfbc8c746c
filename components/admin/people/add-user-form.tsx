"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field, FormError, SubmitButton, inputClass, useZodForm, submitWith } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { Notice } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { PASSWORD_MIN_LENGTH } from "@/server/auth/password-policy";
import { addUserInput, USER_ROLES, type AddUserInput } from "@/server/trpc/routers/admin-people.schemas";

/** A one-time link to show (an invitation or a password reset), or none. */
export type LinkShown = (shown: { kind: "invitation" | "reset"; link: string; who: string } | null) => void;

type Role = (typeof USER_ROLES)[number];
const ROLE_ORDER: Role[] = ["PHARMACIST", "DOCTOR", "ADMIN"];
const DEFAULTS: AddUserInput = { email: "", name: "", role: "PHARMACIST" };

/** Adding a user: invited through a link, or with an initial password; a pharmacist works for a pharmacy or a group, a doctor is a Doctor. */
export function AddUserForm({ onLink }: { onLink: LinkShown }) {
  const t = useTranslations("admin.people.add");
  const trpc = useTRPC();
  const choices = useQuery(trpc.admin.users.bindingChoices.queryOptions());
  return (
    <section aria-labelledby="add-user-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="add-user-heading" className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </h2>
      <div className="mt-4">
        <QueryView query={choices} loadingLabel={t("loadingChoices")}>
          {(data) => <AddUser choices={data} onLink={onLink} />}
        </QueryView>
      </div>
    </section>
  );
}

type Choices = {
  pharmacies: { uid: string; name: string }[];
  groups: { uid: string; name: string }[];
  doctors: { uid: string; name: string; email: string | null }[];
};

function AddUser({ choices, onLink }: { choices: Choices; onLink: LinkShown }) {
  const t = useTranslations("admin.people.add");
  const roles = useTranslations("admin.people.roles");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(addUserInput, DEFAULTS);
  const [mode, setMode] = useState<"invite" | "password">("invite");
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation(trpc.admin.users.add.mutationOptions());
  const role = form.watch("role");
  const doctorUid = form.watch("doctorUid");
  const place = form.watch("pharmacyUid") ? `pharmacy:${form.watch("pharmacyUid")}` : form.watch("pharmacyGroupUid") ? `group:${form.watch("pharmacyGroupUid")}` : "";

  const submit = submitWith(
    form,
    (values) => {
      setAdded(null);
      // Only what the chosen role and mode use goes to the server.
      const input: AddUserInput = { email: values.email, name: values.name, role: values.role };
      if (values.role === "PHARMACIST") Object.assign(input, { pharmacyUid: values.pharmacyUid, pharmacyGroupUid: values.pharmacyGroupUid });
      if (values.role === "DOCTOR") {
        if (values.doctorUid) input.doctorUid = values.doctorUid;
        else Object.assign(input, { doctorName: values.doctorName, doctorEmail: values.doctorEmail, doctorCanSignQes: values.doctorCanSignQes ?? false });
      }
      if (mode === "password") input.password = values.password;
      return add.mutateAsync(input);
    },
    async (result) => {
      setAdded(
        result.invitationMailed
          ? t("invitedMailed", { email: result.email })
          : result.invitationLink
            ? t("invited", { email: result.email })
            : t("created", { email: result.email }),
      );
      onLink(result.invitationLink ? { kind: "invitation", link: result.invitationLink, who: result.email } : null);
      form.reset(DEFAULTS);
      setMode("invite");
      await queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() });
      // An e-mailed invitation is a new message of the outbox.
      if (result.invitationMailed) await queryClient.invalidateQueries({ queryKey: trpc.admin.mail.pathKey() });
    },
  );

  const choosePlace = (value: string) => {
    const [kind, uid] = value.split(":");
    form.setValue("pharmacyUid", kind === "pharmacy" ? uid : undefined);
    form.setValue("pharmacyGroupUid", kind === "group" ? uid : undefined);
  };

  return (
    <form method="post" onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate>
      <Field form={form} name="email" label={t("email")} type="email" autoComplete="off" />
      <Field form={form} name="name" label={t("name")} />
      <Field form={form} name="role" label={t("role")}>
        {(control) => (
          <select {...control} {...form.register("role")} className={inputClass}>
            {ROLE_ORDER.map((r) => (
              <option key={r} value={r}>
                {roles(r)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {role === "PHARMACIST" ? (
        <Field form={form} name="pharmacyUid" label={t("place")}>
          {(control) => (
            <select {...control} value={place} onChange={(e) => choosePlace(e.target.value)} className={inputClass}>
              <option value="" disabled>
                {t("choose")}
              </option>
              <optgroup label={t("pharmacies")}>
                {choices.pharmacies.map((p) => (
                  <option key={p.uid} value={`pharmacy:${p.uid}`}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
              {choices.groups.length > 0 ? (
                <optgroup label={t("groups")}>
                  {choices.groups.map((g) => (
                    <option key={g.uid} value={`group:${g.uid}`}>
                      {g.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          )}
        </Field>
      ) : role === "DOCTOR" ? (
        <Field form={form} name="doctorUid" label={t("doctor")}>
          {(control) => (
            <select {...control} value={doctorUid ?? "new"} onChange={(e) => form.setValue("doctorUid", e.target.value === "new" ? undefined : e.target.value)} className={inputClass}>
              <option value="new">{t("newDoctor")}</option>
              {choices.doctors.map((d) => (
                <option key={d.uid} value={d.uid}>
                  {d.email ? t("doctorWithEmail", { name: d.name, email: d.email }) : d.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <p className="self-end text-sm text-slate-500">{t("adminsNote")}</p>
      )}
      {role === "DOCTOR" && !doctorUid ? (
        <>
          <Field form={form} name="doctorName" label={t("doctorName")} hint={t("doctorNameHint")} />
          <Field form={form} name="doctorEmail" label={t("doctorEmail")} type="email" />
          <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
            <input type="checkbox" {...form.register("doctorCanSignQes")} className="size-4 rounded border-slate-300" />
            {t("canSignQes")}
          </label>
        </>
      ) : null}
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium text-slate-700">{t("password")}</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700">
          <label className="flex items-center gap-2">
            <input type="radio" name="mode" checked={mode === "invite"} onChange={() => (setMode("invite"), form.unregister("password"))} />
            {t("modeInvite")}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="mode" checked={mode === "password"} onChange={() => setMode("password")} />
            {t("modePassword")}
          </label>
        </div>
      </fieldset>
      {mode === "password" ? (
        <Field
          form={form}
          name="password"
          label={t("initialPassword")}
          type="password"
          autoComplete="new-password"
          hint={t("passwordHint", { min: PASSWORD_MIN_LENGTH })}
        />
      ) : null}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <SubmitButton form={form}>{mode === "invite" ? t("invite") : t("create")}</SubmitButton>
        {added ? <Notice>{added}</Notice> : null}
      </div>
      <div className="sm:col-span-2">
        <FormError form={form} />
      </div>
    </form>
  );
}
