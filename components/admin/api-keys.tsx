"use client";

import { ApiKeyList, CreateKeyCard, PermissionPicker } from "@/components/api-keys";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Field, inputClass, useZodForm, submitWith } from "@/components/ui/form";
import { useTRPC } from "@/components/trpc/react";
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
  const tk = useTranslations("apiKeys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(createAdminApiKeyInput, DEFAULTS);
  const create = useMutation(trpc.admin.apiKeys.create.mutationOptions());
  const family = form.watch("family");

  const submit = submitWith(form, create.mutateAsync, async (_, values) => {
    form.reset({ ...DEFAULTS, family: values.family } as CreateAdminApiKeyInput);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.apiKeys.list.pathKey() });
  });

  return (
    <CreateKeyCard
      form={form}
      onSubmit={submit}
      intro={t("createIntro")}
      created={create.data}
      createdNote={create.data ? t("newKeyNote", { name: create.data.displayName }) : ""}
    >
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
        <Field form={form} name="displayName" label={tk("displayName")} maxLength={200} hint={tk("displayNameHint")} />
      </div>
      <p className="text-sm text-slate-600">{t(`familyHints.${family}`)}</p>
      <PermissionPicker key={family} form={form} permissions={ADMIN_KEY_PERMISSIONS[family]} />
    </CreateKeyCard>
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
