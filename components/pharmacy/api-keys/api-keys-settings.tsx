"use client";

import { ApiKeyList, CreateKeyCard, PermissionPicker } from "@/components/api-keys";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { z } from "zod";
import { Field, inputClass, useZodForm, submitWith } from "@/components/ui/form";
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
  const tk = useTranslations("apiKeys");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const scopes = useQuery(trpc.pharmacy.apiKeys.scopes.queryOptions());
  const create = useMutation(trpc.pharmacy.apiKeys.create.mutationOptions());
  const group = scopes.data?.group ?? null;
  const pharmacies = scopes.data?.pharmacies ?? [];
  // A group pharmacist picks the group or one pharmacy; a single-pharmacy pharmacist has nothing to pick.
  const form = useZodForm(keyForm, { displayName: "", permissions: [], scope: "" });
  const submit = submitWith(form, create.mutateAsync, async () => {
    form.reset({ displayName: "", permissions: [], scope: form.getValues("scope") });
    await queryClient.invalidateQueries({ queryKey: trpc.pharmacy.apiKeys.list.pathKey() });
  });

  return (
    <CreateKeyCard
      form={form}
      onSubmit={(e) => {
        // The group is the scope until another is picked.
        if (group && !form.getValues("scope")) form.setValue("scope", GROUP);
        return submit(e);
      }}
      intro={t("createIntro")}
      created={create.data}
      createdNote={create.data ? t("newKeyNote", { name: create.data.displayName }) : ""}
      busy={scopes.isPending}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <Field form={form} name="displayName" label={tk("displayName")} maxLength={200} hint={tk("displayNameHint")} />
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
      <PermissionPicker form={form} permissions={PHARMACY_KEY_PERMISSIONS} hint={(p) => t(`permissionHints.${p as (typeof PHARMACY_KEY_PERMISSIONS)[number]}`)} />
    </CreateKeyCard>
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
