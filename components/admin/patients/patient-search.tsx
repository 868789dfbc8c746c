"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useUrlQuery } from "@/components/ui/use-url-state";
import { useTRPC } from "@/components/trpc/react";
import type { AppRouter } from "@/server/trpc/router";
import { searchPatientsInput } from "@/server/trpc/routers/admin-patients.schemas";

type Patient = inferRouterOutputs<AppRouter>["admin"]["patients"]["search"]["items"][number];

/**
 * Patients: find the organisation's patients by their whole e-mail address (the Management API's
 * match: profile, shop customer or order e-mail, without regard to case), newest first. The address
 * searched for is in the URL (`email`), as the order list's search, so back and reload keep the result.
 */
export function PatientSearch() {
  const t = useTranslations("admin.patients");
  const format = useFormat();
  const trpc = useTRPC();
  const url = useUrlQuery();
  const email = url.get("email") ?? "";
  // A hand-edited address that is not one is shown at its field, not sent.
  const searchable = email !== "" && searchPatientsInput.safeParse({ email }).success;
  const results = useQuery(trpc.admin.patients.search.queryOptions({ email }, { enabled: searchable }));

  const columns: Column<Patient>[] = [
    {
      header: t("columns.patient"),
      key: true,
      cell: (p) => (
        <Link prefetch={false} href={`/admin/patients/${p.uid}`} className="font-medium break-words text-brand-700 hover:underline">
          {p.displayName || t("unnamed")}
        </Link>
      ),
    },
    { header: t("columns.email"), className: "break-all text-slate-700", cell: (p) => p.email ?? "—" },
    { header: t("columns.dateOfBirth"), className: "md:whitespace-nowrap text-slate-700", cell: (p) => format.calendarDate(p.dateOfBirth) },
    {
      header: t("columns.shopCustomers"),
      className: "text-slate-700",
      cell: (p) =>
        p.shopCustomers.length === 0 ? (
          "—"
        ) : (
          <ul className="space-y-0.5">
            {p.shopCustomers.map((c) => (
              <li key={`${c.shopIdentifier}/${c.shopCustomerId}`} className="break-all">
                {t("shopCustomer", { shop: c.shopIdentifier, customer: c.shopCustomerId })}
              </li>
            ))}
          </ul>
        ),
    },
    { header: t("columns.created"), className: "md:whitespace-nowrap text-slate-600", cell: (p) => format.dateTime(p.createdAt) },
  ];

  return (
    <div className="space-y-4">
      <SearchForm key={email} email={email} onSearch={(next) => url.set({ email: next })} />
      {searchable ? (
        <QueryView
          query={results}
          loadingLabel={t("searching")}
          isEmpty={(data) => data.items.length === 0}
          empty={<EmptyState title={t("noMatch", { email })}>{t("noMatchHint")}</EmptyState>}
        >
          {(data) => <DataTable label={t("resultsLabel", { email })} columns={columns} rows={data.items} rowKey={(p) => p.uid} />}
        </QueryView>
      ) : null}
    </div>
  );
}

function SearchForm({ email, onSearch }: { email: string; onSearch: (email: string) => void }) {
  const t = useTranslations("admin.patients");
  const form = useZodForm(searchPatientsInput, { email });
  const submit = submitWith(form, async (values) => onSearch(values.email));
  const { trigger } = form;
  useEffect(() => {
    if (email) void trigger("email");
  }, [email, trigger]);
  return (
    <form onSubmit={submit} noValidate role="search" aria-label={t("searchLabel")} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-full min-w-0 md:max-w-md md:flex-1">
          <Field form={form} name="email" type="email" label={t("email")} maxLength={254} autoComplete="off" spellCheck={false} hint={t("emailHint")} />
        </div>
        <SubmitButton form={form} className="md:mb-5">
          {t("search")}
        </SubmitButton>
      </div>
      <FormError form={form} />
    </form>
  );
}
