"use client";

import { ApiKeyList } from "@/components/api-key-list";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { z } from "zod";
import { SecretBox } from "@/components/ui/controls";
import { Field, FormError, SubmitButton, inputClass, showServerErrors, useZodForm } from "@/components/ui/form";
import { useTRPC } from "@/components/trpc/react";
import { createApiKeyInput, PHARMACY_KEY_PERMISSIONS } from "@/server/trpc/routers/api-keys.schemas";

const GROUP = "group";

/** The form's scope choice ("group", a pharmacy's uid, or nothing for a single pharmacy's pharmacist) as the procedure's input. */
const keyForm = z
  .object({ displayName: z.string(), permissions: z.array(z.string()), scope: z.string() })
  .transform(({ scope, ...rest }): z.input<typeof createApiKeyInput> => {
    const key = rest as Pick<z.input<typeof createApiKeyInput>, "displayName" | "permissions">;
    return scope === "" ? key : scope === GROUP ? { ...key, groupWide: true } : { ...key, pharmacyUid: scope };
  })
  .pipe(createApiKeyInput);

export function ApiKeysSettings() {
  return (
    <div className="space-y-10">
      <CreateKeyForm />
      <KeyList />
    </div>
  );
}

function CreateKeyForm() {
  const t = useTranslations("pharmacy.apiKeys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const scopes = useQuery(trpc.pharmacy.apiKeys.scopes.queryOptions());
  const create = useMutation(trpc.pharmacy.apiKeys.create.mutationOptions());
  const group = scopes.data?.group ?? null;
  const pharmacies = scopes.data?.pharmacies ?? [];
  // A group pharmacist picks the group or one pharmacy; a single-pharmacy pharmacist has nothing to pick.
  const form = useZodForm(keyForm, { displayName: "", permissions: [], scope: "" });
  const submit = form.handleSubmit(async (input) => {
    try {
      await create.mutateAsync(input);
    } catch (error) {
      showServerErrors(form, error);
      return;
    }
    form.reset({ displayName: "", permissions: [], scope: form.getValues("scope") });
    await queryClient.invalidateQueries({ queryKey: trpc.pharmacy.apiKeys.list.pathKey() });
  });
  const permissionError = form.formState.errors.permissions?.message;

  return (
    <section aria-labelledby="create-key-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="create-key-heading" className="text-lg font-semibold text-slate-900">
        {t("createHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t("createIntro")}</p>
      <form onSubmit={(e) => {
        // The group is the scope until another is picked.
        if (group && !form.getValues("scope")) form.setValue("scope", GROUP);
        return submit(e);
      }} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field form={form} name="displayName" label={t("displayName")} maxLength={200} hint={t("displayNameHint")} />
          {group ? (
            <Field form={form} name="scope" label={t("scope")}>
              {(control) => (
                <select {...form.register("scope")} {...control} className={inputClass}>
                  <option value={GROUP}>{t("wholeGroup", { name: group.displayName })}</option>
                  {pharmacies.map((p) => (
                    <option key={p.uid} value={p.uid}>
                      {t("onePharmacy", { name: p.displayName })}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
        </div>
        <fieldset aria-describedby={permissionError ? "permission-errors" : undefined}>
          <legend className="text-sm font-medium text-slate-700">{t("permissions")}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {PHARMACY_KEY_PERMISSIONS.map((permission) => (
              <div key={permission} className="flex items-start gap-3 rounded-md border border-slate-200 px-3 py-2">
                <input
                  id={`permission-${permission}`}
                  type="checkbox"
                  value={permission}
                  {...form.register("permissions")}
                  aria-describedby={`permission-${permission}-hint`}
                  className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
                />
                <div className="min-w-0">
                  <label htmlFor={`permission-${permission}`} className="font-mono text-sm text-slate-900">
                    {permission}
                  </label>
                  <p id={`permission-${permission}-hint`} className="text-xs text-slate-500">
                    {t(`permissionHints.${permission}`)}
                  </p>
                </div>
              </div>
            ))}
          </div>
          {permissionError ? (
            <p id="permission-errors" className="mt-1 text-xs text-red-700">
              {permissionError}
            </p>
          ) : null}
        </fieldset>
        <FormError form={form} />
        <SubmitButton form={form} disabled={form.formState.isSubmitting || scopes.isPending}>
          {form.formState.isSubmitting ? t("creating") : t("create")}
        </SubmitButton>
      </form>
      {create.data ? (
        <div className="mt-6 space-y-2">
          <SecretBox label={t("newKey")} value={create.data.apiKey} note={t("newKeyNote", { name: create.data.displayName })} />
        </div>
      ) : null}
    </section>
  );
}

function KeyList() {
  const t = useTranslations("pharmacy.apiKeys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.pharmacy.apiKeys.list.queryOptions());
  const revoke = useMutation(
    trpc.pharmacy.apiKeys.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.pharmacy.apiKeys.list.pathKey() }),
    }),
  );
  return (
    <ApiKeyList
      keys={keys}
      revoke={revoke}
      scope={{ title: t("scopeColumn"), of: (key) => (key.scope.type === "group" ? t("groupScope", { name: key.scope.displayName }) : key.scope.displayName) }}
      emptyText={t("empty")}
    />
  );
}
