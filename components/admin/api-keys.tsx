"use client";

import { ApiKeyList } from "@/components/api-key-list";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { SecretBox } from "@/components/ui/controls";
import { Field, FormError, SubmitButton, inputClass, useZodForm } from "@/components/ui/form";
import { useTRPC } from "@/components/trpc/react";
import { submitWith } from "@/components/admin/form-submit";
import { ADMIN_KEY_PERMISSIONS, createAdminApiKeyInput, type CreateAdminApiKeyInput } from "@/server/trpc/routers/admin.schemas";

type Family = keyof typeof ADMIN_KEY_PERMISSIONS;
const FAMILIES = Object.keys(ADMIN_KEY_PERMISSIONS) as Family[];
const DEFAULTS: CreateAdminApiKeyInput = { family: "MANAGEMENT", displayName: "", permissions: [] };

/** Settings → API keys: the organisation's Management and Public keys. */
export function AdminApiKeys() {
  return (
    <div className="space-y-10">
      <CreateKeyForm />
      <KeyList />
    </div>
  );
}

function CreateKeyForm() {
  const t = useTranslations("admin.apiKeys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(createAdminApiKeyInput, DEFAULTS);
  const create = useMutation(trpc.admin.apiKeys.create.mutationOptions());
  const family = form.watch("family");
  const permissionError = form.formState.errors.permissions?.message;

  const submit = submitWith(form, create.mutateAsync, async (_, values) => {
    form.reset({ ...DEFAULTS, family: values.family } as CreateAdminApiKeyInput);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.pathKey() });
  });

  return (
    <section aria-labelledby="create-key-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="create-key-heading" className="text-lg font-semibold text-slate-900">
        {t("createHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t("createIntro")}</p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field form={form} name="family" label={t("family")}>
            {(control) => (
              <select
                {...control}
                value={family}
                // Permissions are per family: a switch starts the picker afresh.
                onChange={(e) => form.reset({ ...form.getValues(), family: e.target.value as Family, permissions: [] })}
                className={inputClass}
              >
                {FAMILIES.map((f) => (
                  <option key={f} value={f}>
                    {t(`families.${f}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field form={form} name="displayName" label={t("displayName")} maxLength={200} hint={t("displayNameHint")} />
        </div>
        <p className="text-sm text-slate-600">{t(`familyHints.${family}`)}</p>
        <fieldset aria-describedby={permissionError ? "permission-errors" : undefined}>
          <legend className="text-sm font-medium text-slate-700">{t("permissions")}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {ADMIN_KEY_PERMISSIONS[family].map((permission) => (
              <div key={`${family}:${permission}`} className="flex items-center gap-3 rounded-md border border-slate-200 px-3 py-2">
                <input
                  id={`permission-${permission}`}
                  type="checkbox"
                  value={permission}
                  {...form.register("permissions")}
                  className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
                />
                <label htmlFor={`permission-${permission}`} className="min-w-0 break-all font-mono text-sm text-slate-900">
                  {permission}
                </label>
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
        <SubmitButton form={form}>{t("create")}</SubmitButton>
      </form>
      {create.data ? (
        <div className="mt-6">
          <SecretBox label={t("newKey")} value={create.data.apiKey} note={t("newKeyNote", { name: create.data.displayName })} />
        </div>
      ) : null}
    </section>
  );
}

function KeyList() {
  const t = useTranslations("admin.apiKeys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.admin.apiKeys.list.queryOptions());
  const revoke = useMutation(
    trpc.admin.apiKeys.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.pathKey() }),
    }),
  );
  return (
    <ApiKeyList
      keys={keys}
      revoke={revoke}
      scope={{ title: t("familyColumn"), of: (key) => (FAMILIES.includes(key.family as Family) ? t(`families.${key.family as Family}`) : key.family) }}
      emptyText={t("emptyHint")}
    />
  );
}
